// (In the e2e suite: it needs the Chromium that scripts/e2e/setup.sh installs.)
// The escalation panel's browser code in real Chromium, behind the exact CSP the host sets, served over real HTTP.
// Only acquireVsCodeApi is stood in for (it records what the panel posts); everything else is the shipped page.
import * as assert from 'assert';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { buildPanelData } from '../../src/extension/views/panelData';
import { panelHtml } from '../../src/extension/views/panelHtml';
import type { PanelData } from '../../src/shared/protocol';
import { candidate, iteration, record } from '../unit/extension/views/records';
import { ceiling } from './harness/patience';

const ROOT = path.join(__dirname, '..', '..');
const CHROMIUM = process.env.GREENLOOP_E2E_CHROMIUM ?? '/usr/bin/chromium';
const NONCE = 'dGVzdC1ub25jZS0wMTIzNDU2';

function data(over: Partial<PanelData> = {}): PanelData {
  const r = record({
    iterations: [
      iteration(1, { verdict: 'progress', failing: ['Cart > tax'], hypothesis: 'Totals ignored quantity.', tokens: { prompt: 8000, completion: 2000 } }),
      iteration(2, { verdict: 'regression', failing: ['Cart > tax', 'Cart > total'], note: 'Broke Cart > total.', tokens: { prompt: 9000, completion: 1000 } }),
    ],
    tokens: { prompt: 17_000, completion: 3_000 },
    outputExcerpt: '1 failing\n<img src=x onerror="window.__pwned=1">',
  });
  const changed = [
    { path: 'src/cart.ts', baselineToBest: true, bestToNow: true },
    { path: 'src/<b>tax</b>.ts', baselineToBest: true, bestToNow: false },
  ];
  return { ...buildPanelData(r, 'cart', changed), ...over };
}

describe('escalation panel in Chromium', function () {
  this.timeout(ceiling(60_000));
  let tmp = '';
  let server: http.Server;
  let base = '';
  let browser: Browser;
  let page: Page;

  before(async () => {
    assert.ok(fs.existsSync(CHROMIUM), `Chromium is needed at ${CHROMIUM} (set GREENLOOP_E2E_CHROMIUM, or run scripts/e2e/setup.sh).`);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-panel-'));
    await build({ entryPoints: [path.join(ROOT, 'src/webview/panel.ts')], outfile: path.join(tmp, 'webview.js'), bundle: true, format: 'iife', platform: 'browser', target: 'es2022', logLevel: 'silent' });
    server = http.createServer((req, res) => {
      const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      if (req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(panelHtml({ cspSource: origin, nonce: NONCE, scriptUri: `${origin}/webview.js`, styleUri: `${origin}/panel.css`, title: 'Greenloop: cart' }));
      } else if (req.url === '/webview.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        res.end(fs.readFileSync(path.join(tmp, 'webview.js')));
      } else if (req.url === '/panel.css') {
        res.writeHead(200, { 'content-type': 'text/css' });
        res.end(fs.readFileSync(path.join(ROOT, 'media/panel.css')));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
      env: { ...process.env, XDG_CONFIG_HOME: path.join(tmp, 'config'), XDG_CACHE_HOME: path.join(tmp, 'cache') },
      timeout: ceiling(60_000),
    });
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  beforeEach(async () => {
    page = await browser.newPage();
    // Its waits are for the page to draw what it was sent; a busy machine draws later.
    page.setDefaultTimeout(ceiling(30_000));
    // A string, not a function: tsx's name helpers would not exist in the page.
    await page.addInitScript({
      content: `
        window.__sent = [];
        window.__violations = [];
        document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
        window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__sent.push(m), getState: () => undefined, setState: () => undefined });
      `,
    });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    (page as unknown as { errors: string[] }).errors = errors;
    await page.goto(base);
  });

  afterEach(async () => {
    await page.close();
  });

  const sent = () => page.evaluate(() => (window as unknown as { __sent: unknown[] }).__sent);
  const send = (message: unknown) => page.evaluate((m) => window.postMessage(m, '*'), message);
  const show = async (d: PanelData) => {
    await send({ type: 'show', data: d });
    await page.waitForFunction((s) => document.getElementById('reason')?.textContent === s, d.reasonSentence);
  };

  it('says ready once, and runs under the strict CSP without a violation or an error', async () => {
    await page.waitForFunction(() => (window as unknown as { __sent: unknown[] }).__sent.length > 0);
    assert.deepStrictEqual(await sent(), [{ type: 'ready' }]);
    await show(data());
    assert.deepStrictEqual(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations), []);
    assert.deepStrictEqual((page as unknown as { errors: string[] }).errors, []);
    // The stylesheet applied: it is the only styling allowed, since the CSP forbids inline styles.
    assert.strictEqual(await page.locator('#actions').evaluate((e) => getComputedStyle(e).position), 'sticky');
  });

  it('keeps the actions in view at 1440×900, before and after scrolling to the output', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await show(data({ outputExcerpt: 'line\n'.repeat(400), hypotheses: Array.from({ length: 12 }, (_, i) => ({ n: i + 1, verdict: 'no-progress', verdictText: 'no progress', failing: 3, countsText: '3 failing', hypothesis: 'Long hypothesis. '.repeat(20), note: '' })) }));
    const inView = async (name: string) => {
      const box = await page.getByRole('button', { name }).boundingBox();
      return box !== null && box.y >= 0 && box.y + box.height <= 900;
    };
    for (const name of ['Roll back to best', 'Roll back to baseline', 'Accept current state', 'Close']) assert.ok(await inView(name), `${name} is above the fold`);
    assert.ok(await inView('Retry with hint'), 'Retry with hint is above the fold');
    await page.locator('#output').scrollIntoViewIfNeeded();
    assert.ok(await inView('Roll back to baseline'), 'the action bar stays in view when scrolled down');
  });

  it('lists changed files with buttons that open the diff editor, and counts tests and type errors apart', async () => {
    await show(data({ finalText: '1 failing, 1 type error', failingTests: ['Cart > tax'] }));
    assert.deepStrictEqual(await page.locator('#changed-files .path').allTextContents(), ['src/cart.ts', 'src/<b>tax</b>.ts']);
    assert.strictEqual(await page.locator('#changed-files b').count(), 0, 'file names are text, never markup');
    await page.getByRole('button', { name: 'Baseline ↔ best: src/cart.ts' }).click();
    await page.getByRole('button', { name: 'Best ↔ now: src/cart.ts' }).click();
    assert.strictEqual(await page.getByRole('button', { name: 'Best ↔ now: src/<b>tax</b>.ts' }).count(), 0, 'no best ↔ now diff when nothing changed since');
    assert.deepStrictEqual((await sent()).slice(1), [{ type: 'openDiff', path: 'src/cart.ts', side: 'baseline-best' }, { type: 'openDiff', path: 'src/cart.ts', side: 'best-now' }]);
    assert.strictEqual(await page.textContent('#failing-summary'), '1 failing, 1 type error');
    assert.deepStrictEqual(await page.locator('#failing-tests li').allTextContents(), ['Cart > tax']);
    assert.deepStrictEqual(await page.locator('#hypotheses .verdict').allTextContents(), ['progress · 1 failing', 'regression · 2 failing']);
    assert.match((await page.textContent('#run-meta')) ?? '', /3 failing → 1 failing/);
    assert.doesNotMatch((await page.textContent('#run-meta')) ?? '', /run-1/, 'no raw run id');
  });

  it('shows why it stopped, the chart with the regression marked, hypotheses and output as text', async () => {
    const d = data();
    await show(d);
    assert.strictEqual(await page.textContent('#heading'), 'Greenloop: Stuck: no progress');
    assert.strictEqual(await page.textContent('#reason-detail'), d.reasonText);
    assert.strictEqual(await page.locator('#chart svg .point').count(), 3);
    assert.strictEqual(await page.locator('#chart svg .point.regression').count(), 1);
    assert.strictEqual(await page.getAttribute('#chart svg', 'role'), 'img');
    assert.strictEqual(await page.locator('#output img').count(), 0, 'content is text, never markup');
    assert.strictEqual(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    assert.deepStrictEqual(await page.locator('#hypotheses .hypothesis').allTextContents(), ['Totals ignored quantity.', 'The model gave no hypothesis.']);
    assert.match((await page.textContent('#output')) ?? '', /^1 failing\n<img/);
  });

  it('names flaky tests only when the run found some', async () => {
    await show(data());
    assert.strictEqual(await page.locator('#flaky').isVisible(), false);
    await show(data({ flaky: ['Cart > rounding'], reasonSentence: 'With a flaky test.' }));
    assert.strictEqual(await page.locator('#flaky').isVisible(), true);
    assert.match((await page.textContent('#flaky')) ?? '', /^Flaky: Cart > rounding failed and then passed on a re-run of the same files, so it counts neither as progress nor as regression\.$/);
  });

  // Issue 24: a cast added on a diagnostic's line is kept but named for the person to look at.
  it('names the casts the files still hold in a warning block under the reason, and each under its attempt, as text', async () => {
    await show(data());
    assert.strictEqual(await page.locator('#casts').isVisible(), false, 'no block when no attempt added a cast');
    const cast = 'src/<b>money</b>.ts:3: the edit adds `as any` on the line where tsc TS2322 "Type \'string\' is not assignable to type \'number\'." was reported; check that the cast is right and does not just hide the error.';
    const r = record({
      outcome: 'green', reason: null, finalState: 'last',
      iterations: [iteration(1, { verdict: 'green', castWarnings: [cast], hypothesis: 'Cast it.' })],
    });
    await show(buildPanelData(r, 'money', []));
    const block = page.getByRole('note', { name: 'Casts to check' });
    assert.strictEqual(await block.isVisible(), true);
    assert.deepStrictEqual(await block.locator('li').allTextContents(), [`Attempt 1: ${cast}`]);
    assert.deepStrictEqual(await page.locator('#hypotheses .casts li').allTextContents(), [`Cast to check: ${cast}`]);
    assert.strictEqual(await page.locator('#casts b, #hypotheses b').count(), 0, 'the sentence is text, never markup');
    assert.ok((await page.locator('#casts').evaluate((e) => e.getBoundingClientRect().top)) < (await page.locator('#chart').evaluate((e) => e.getBoundingClientRect().top)), 'said before the chart');
  });

  // Issue 41: the last attempt's answers, each with its verdict, which went on, and why each other lost, as text.
  it("lists the last attempt's answers with their verdicts and why each lost, only when it asked for several", async () => {
    await show(data());
    assert.strictEqual(await page.locator('#candidates').isVisible(), false, 'no list for one answer per attempt');
    const r = record({
      iterations: [iteration(1, {
        verdict: 'no-progress', failing: ['Cart > tax'],
        candidates: [
          candidate(1, { chosen: true, lostBecause: undefined, failing: 1, note: 'the failing tests still fail' }),
          candidate(2, { verdict: 'refused', failing: null, files: ['test/<b>cart</b>.test.ts'], snapshot: undefined, note: 'a protected test file', lostBecause: 'it was refused' }),
        ],
      })],
    });
    await show(buildPanelData(r, 'cart', []));
    assert.strictEqual(await page.locator('#candidates').isVisible(), true);
    assert.strictEqual(await page.textContent('#candidates-heading'), 'Answers of attempt 1');
    assert.strictEqual(await page.textContent('#candidates-summary'), '2 candidates — 1 no progress, 1 refused');
    const items = page.getByRole('list', { name: 'Answers of the last attempt' }).locator(':scope > li');
    assert.deepStrictEqual(await items.locator('.verdict').allTextContents(), ['no progress · chosen · 1 failing · 1,150 tokens', 'refused · 1,150 tokens']);
    assert.deepStrictEqual(await items.locator('.lost').allTextContents(), ['Not chosen: it was refused']);
    assert.strictEqual(await page.locator('#candidates b').count(), 0, 'file names are text, never markup');
  });

  it('retries with the hint and the extra budget it shows, driven by keyboard alone', async () => {
    await show(data());
    assert.strictEqual(await page.textContent('#grant-summary'), 'This grants 3 more attempts, 30,000 more tokens and 9 more minutes.');
    await page.focus('#hint');
    await page.keyboard.type('The bug is in rounding.');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('5');
    assert.strictEqual(await page.textContent('#grant-summary'), 'This grants 5 more attempts, 30,000 more tokens and 9 more minutes.');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    assert.strictEqual(await page.evaluate(() => document.activeElement?.id), 'retry');
    await page.keyboard.press('Enter');
    assert.deepStrictEqual((await sent()).slice(1), [{ type: 'retry', hint: 'The bug is in rounding.', extra: { iterations: 5, tokens: 30_000, minutes: 9 } }]);
  });

  it('refuses a retry without at least one attempt, and says why', async () => {
    await show(data());
    await page.fill('#extra-iterations', '0');
    assert.match((await page.textContent('#grant-summary')) ?? '', /Enter at least 1 attempt/);
    assert.strictEqual(await page.getByRole('button', { name: 'Retry with hint' }).isDisabled(), true);
    await page.locator('#retry-form').evaluate((f: HTMLFormElement) => f.requestSubmit());
    assert.deepStrictEqual((await sent()).slice(1), []);
  });

  it('turns each button into its typed message, found by its accessible name', async () => {
    await show(data({ actions: { retry: true, rollbackBest: true, rollbackBaseline: true, accept: true } }));
    for (const name of ['Roll back to best', 'Roll back to baseline', 'Accept current state', 'Close']) {
      await page.getByRole('button', { name }).click();
    }
    assert.deepStrictEqual((await sent()).slice(1), [{ type: 'rollback', to: 'best' }, { type: 'rollback', to: 'baseline' }, { type: 'accept' }, { type: 'close' }]);
  });

  it('enables only the actions the host offers for the run as it is now', async () => {
    await show(data({ actions: { retry: false, rollbackBest: true, rollbackBaseline: false, accept: true } }));
    assert.strictEqual(await page.getByRole('button', { name: 'Retry with hint' }).isDisabled(), true);
    assert.strictEqual(await page.getByRole('button', { name: 'Roll back to baseline' }).isDisabled(), true);
    assert.strictEqual(await page.getByRole('button', { name: 'Roll back to best' }).isDisabled(), false);
  });

  it('disables the actions while busy or while the run is running, and announces status politely', async () => {
    await show(data({ actions: { retry: true, rollbackBest: true, rollbackBaseline: true, accept: true } }));
    await send({ type: 'busy', busy: true });
    await send({ type: 'status', message: 'Rolled back to the best state.', level: 'info' });
    assert.strictEqual(await page.getByRole('button', { name: 'Roll back to best' }).isDisabled(), true);
    assert.strictEqual(await page.getByRole('status').textContent(), 'Rolled back to the best state.');
    await send({ type: 'busy', busy: false });
    assert.strictEqual(await page.getByRole('button', { name: 'Accept current state' }).isDisabled(), false);
    await show(data({ running: true, outcome: 'running', reasonSentence: 'The loop is still running; this page follows it.', actions: { retry: false, rollbackBest: false, rollbackBaseline: false, accept: false } }));
    assert.strictEqual(await page.getByRole('button', { name: 'Retry with hint' }).isDisabled(), true);
    assert.strictEqual(await page.getByRole('button', { name: 'Close' }).isDisabled(), false);
  });

  it('ignores malformed host messages and keeps what the person typed across live updates', async () => {
    await show(data());
    await page.fill('#extra-tokens', '1234');
    await send({ type: 'show', data: { runId: 'x' } });
    await send({ type: 'eval', code: 'window.__pwned = 1' });
    await show(data({ reasonSentence: 'Updated.' }));
    assert.strictEqual(await page.inputValue('#extra-tokens'), '1234');
    assert.strictEqual(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    assert.deepStrictEqual((page as unknown as { errors: string[] }).errors, []);
  });
});
