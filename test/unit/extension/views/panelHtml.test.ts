import * as assert from 'assert';
import { escapeHtml, makeNonce, panelCsp, panelHtml } from '../../../../src/extension/views/panelHtml';

const input = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/panel.css',
  nonce: 'Tk9OQ0UtMTIzNDU2Nzg5MA==',
  title: 'Greenloop: cart',
};

describe('escalation panel HTML', () => {
  const html = panelHtml(input);

  it('sets exactly the strict CSP: nothing by default, scripts only by nonce, styles and images only from the bundle', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
    assert.strictEqual(
      csp,
      "default-src 'none'; img-src https://file+.vscode-resource.vscode-cdn.net data:; style-src https://file+.vscode-resource.vscode-cdn.net; script-src 'nonce-Tk9OQ0UtMTIzNDU2Nzg5MA==';".replace(/'/g, '&#39;'),
    );
    assert.strictEqual(panelCsp('S', 'N'), "default-src 'none'; img-src S data:; style-src S; script-src 'nonce-N';");
  });

  it('loads its one script with the nonce and has no inline script, inline style or event handler', () => {
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    assert.deepStrictEqual(scripts, [`<script nonce="${input.nonce}" src="${input.scriptUri}">`]);
    assert.doesNotMatch(html, /<script[^>]*>[^<]+<\/script>/);
    assert.doesNotMatch(html, /<style|style=|\son[a-z]+=/i);
  });

  it('references no remote resource: the only URLs are the bundled script and stylesheet', () => {
    const urls = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    assert.deepStrictEqual(urls.sort(), [input.scriptUri, input.styleUri].sort());
    const anyUrl = [...html.matchAll(/https?:\/\/[^\s"'<>]+/g)].map((m) => m[0]);
    assert.ok(anyUrl.every((u) => u.startsWith(input.cspSource)), `unexpected URLs: ${anyUrl.join(', ')}`);
  });

  it('puts the actions first, right under the heading, and the retry form before the chart and the output', () => {
    const at = (needle: string) => html.indexOf(needle);
    assert.ok(at('id="actions"') > at('id="run-meta"') && at('id="actions"') < at('id="why-heading"'), 'the action bar comes before the explanation');
    assert.ok(at('id="retry-form"') < at('id="chart"') && at('id="retry-form"') < at('id="output"'));
    assert.ok(!html.includes('id="diff"'), 'changed files open in the diff editor; no raw diff block');
    assert.ok(html.includes('id="changed-files"'));
  });

  it('has the controls the e2e tests and keyboard users rely on: real buttons with stable names, labelled inputs', () => {
    const buttons = [...html.matchAll(/<button [^>]*id="([^"]+)"[^>]*>([^<]+)<\/button>/g)].map((m) => `${m[1]}=${m[2]}`);
    assert.deepStrictEqual(buttons, [
      'rollback-best=Roll back to best',
      'rollback-baseline=Roll back to baseline',
      'accept=Accept current state',
      'close=Close',
      'retry=Retry with hint',
    ]);
    for (const id of ['hint', 'extra-iterations', 'extra-tokens', 'extra-minutes']) {
      assert.match(html, new RegExp(`<label for="${id}">[^<]+</label>`), `#${id} has a label`);
    }
    assert.match(html, /<p id="reason" class="reason">/);
    assert.match(html, /<p id="status" role="status" aria-live="polite">/);
    assert.match(html, /<input id="extra-iterations" type="number" min="1" max="100" step="1" value="3" required>/);
    assert.doesNotMatch(html, /tabindex="[1-9]/, 'focus follows document order');
  });

  it('has a hidden warning block for the casts to check, under the reason and before the retry form', () => {
    assert.match(html, /<div id="casts" class="casts" role="note" aria-labelledby="casts-heading" hidden>\s*<h3 id="casts-heading">Casts to check<\/h3>\s*<ul id="cast-list"><\/ul>/);
    assert.ok(html.indexOf('id="casts"') > html.indexOf('id="reason"') && html.indexOf('id="casts"') < html.indexOf('id="retry-form"'));
  });

  it('escapes the title', () => {
    const evil = panelHtml({ ...input, title: 'Greenloop: <img src=x onerror=alert(1)>' });
    assert.doesNotMatch(evil, /<img/);
    assert.match(evil, /<h1 id="heading">Greenloop: &lt;img src=x onerror=alert\(1\)&gt;<\/h1>/);
    assert.strictEqual(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('makes a fresh, unguessable nonce each time (at least 128 bits, CSP-safe characters)', () => {
    const nonces = new Set(Array.from({ length: 50 }, makeNonce));
    assert.strictEqual(nonces.size, 50);
    for (const n of nonces) {
      assert.match(n, /^[A-Za-z0-9+/]+=*$/);
      assert.ok(Buffer.from(n, 'base64').length >= 16);
    }
  });
});
