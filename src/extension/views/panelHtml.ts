// The escalation panel's HTML shell. Pure, so the CSP and the markup the e2e tests rely on are tested without VS Code.
// The shell holds every control (stable ids and accessible names); dist/webview.js fills in the run's data.
import { randomBytes } from 'crypto';
import { MAX_EXTRA, MAX_HINT_CHARS } from '../../shared/protocol';

export interface PanelHtmlInput {
  /** webview.cspSource */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  nonce: string;
  title: string;
}

export function makeNonce(): string {
  return randomBytes(18).toString('base64');
}

export function panelCsp(cspSource: string, nonce: string): string {
  return `default-src 'none'; img-src ${cspSource} data:; style-src ${cspSource}; script-src 'nonce-${nonce}';`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

export function panelHtml(input: PanelHtmlInput): string {
  const a = (s: string) => escapeHtml(s);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${a(panelCsp(input.cspSource, input.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${a(input.styleUri)}">
<title>${a(input.title)}</title>
</head>
<body>
<main id="app" aria-busy="true">
  <header>
    <h1 id="heading">${a(input.title)}</h1>
    <p id="run-meta" class="muted"></p>
  </header>
  <section id="actions" class="actions" aria-labelledby="actions-heading">
    <h2 id="actions-heading" class="visually-hidden">What next</h2>
    <div class="buttons" role="group" aria-label="Workspace state">
      <button type="button" id="rollback-best">Roll back to best</button>
      <button type="button" id="rollback-baseline">Roll back to baseline</button>
      <button type="button" id="accept">Accept current state</button>
      <button type="button" id="close">Close</button>
    </div>
    <p id="workspace" aria-live="polite"></p>
    <p id="status" role="status" aria-live="polite"></p>
  </section>
  <section aria-labelledby="why-heading">
    <h2 id="why-heading">Why the loop stopped</h2>
    <p id="reason" class="reason">Loading…</p>
    <p id="reason-detail"></p>
    <div id="setup-actions" class="setup-actions" hidden></div>
    <p id="advice"></p>
    <ul id="hints" class="hints" aria-label="Hints given so far"></ul>
    <p id="flaky" class="muted" hidden></p>
    <div id="casts" class="casts" role="note" aria-labelledby="casts-heading" hidden>
      <h3 id="casts-heading">Casts to check</h3>
      <ul id="cast-list"></ul>
    </div>
  </section>
  <section aria-labelledby="retry-heading">
    <h2 id="retry-heading">Retry with a hint</h2>
    <form id="retry-form" novalidate>
      <label for="hint">Hint for the model (optional)</label>
      <textarea id="hint" rows="3" maxlength="${MAX_HINT_CHARS}" placeholder="e.g. The bug is in the rounding of totals, not in the tests."></textarea>
      <fieldset>
        <legend>Extra budget for the retry</legend>
        <label for="extra-iterations">Attempts</label>
        <input id="extra-iterations" type="number" min="1" max="${MAX_EXTRA.iterations}" step="1" value="3" required>
        <label for="extra-tokens">Tokens</label>
        <input id="extra-tokens" type="number" min="0" max="${MAX_EXTRA.tokens}" step="1000" value="0">
        <label for="extra-minutes">Minutes</label>
        <input id="extra-minutes" type="number" min="0" max="${MAX_EXTRA.minutes}" step="1" value="0">
      </fieldset>
      <p id="grant-summary" aria-live="polite"></p>
      <button type="submit" id="retry" class="primary">Retry with hint</button>
    </form>
  </section>
  <section aria-labelledby="changed-heading">
    <h2 id="changed-heading">Changed files</h2>
    <ul id="changed-files" class="changed-files" aria-label="Files the run changed"></ul>
  </section>
  <section aria-labelledby="failing-heading">
    <h2 id="failing-heading">Failing now</h2>
    <p id="failing-summary"></p>
    <ul id="failing-tests" class="failing-tests" aria-label="Failing tests"></ul>
  </section>
  <section aria-labelledby="chart-heading">
    <h2 id="chart-heading">Failing per attempt</h2>
    <div id="chart" class="chart-box"></div>
    <p class="legend muted"><span class="key baseline">■</span> baseline · <span class="key normal">●</span> attempt · <span class="key regression">✕</span> regression · <span class="key green">●</span> green</p>
  </section>
  <section id="candidates" aria-labelledby="candidates-heading" hidden>
    <h2 id="candidates-heading">Answers of the last attempt</h2>
    <p id="candidates-summary"></p>
    <ol id="candidate-list" class="candidates" aria-label="Answers of the last attempt"></ol>
  </section>
  <section aria-labelledby="hypotheses-heading">
    <h2 id="hypotheses-heading">The model's hypotheses</h2>
    <ol id="hypotheses" class="hypotheses"></ol>
  </section>
  <section aria-labelledby="output-heading">
    <h2 id="output-heading">Last test output</h2>
    <pre id="output" class="output" tabindex="0" aria-label="Last test output"></pre>
  </section>
</main>
<script nonce="${a(input.nonce)}" src="${a(input.scriptUri)}"></script>
</body>
</html>
`;
}
