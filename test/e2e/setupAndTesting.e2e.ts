import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { screenshot } from './harness/browser';
import { startGreenloopSession, ui } from './harness/greenloopSession';
import type { GreenloopSession } from './harness/greenloopSession';
import { ceiling, patientTests } from './harness/patience';
import { eventually } from './harness/poll';
import { runSaved } from './harness/savedRuns';
import { TestGate } from './harness/testGate';
import { clearNotifications, hidePanel, notificationButton, notificationCenterMessages, openViewContainer, runCommand, statusBarItem, statusBarText, treeRows, waitForNotification } from './harness/workbench';
import { waitForActiveTab, webviewDocument } from './harness/webviewPanel';
import { answer, COMMENT, FIX_ADD, FIX_MUL } from '../support/calcAnswers';

/** A loopback port nothing listens on (bound, then closed): a model server that is not running. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// Issue 11: a setup problem ends before any model call in one sentence with the button that fixes it (h), and the
// Testing view shows the run's tests — the one fixed as passed, the one still failing with its message (i).
// Issue 22: a model that cannot be reached shows no count that was never measured (j); the progress notification says
// what runs while the first test run is on (i, whose baseline waits for the spec), and the Testing view's "Fix until
// green (selected failing tests)" profile fixes the one test selected (i).
describe('Greenloop in a real VS Code: setup errors and the Testing view', function () {
  patientTests(240_000);
  let s: GreenloopSession;

  before(async function () {
    this.timeout(ceiling(300_000));
    s = await startGreenloopSession();
  });
  afterEach(async function () {
    await s?.afterTest(this.currentTest);
  });
  after(async function () {
    this.timeout(ceiling(120_000));
    await s?.stop();
  });

  const chatRequests = () => s.model.requests.filter((r) => r.path.endsWith('/chat/completions'));

  it('h. a test command that cannot run: one sentence and "Open tasks.json" before any model call', async function () {
    const page = s.browser.page;
    const ws = s.farm.copy('calc', 'h-missing-script');
    mkdirSync(join(ws, '.vscode'), { recursive: true });
    // The person's default Test task names a script package.json does not have.
    writeFileSync(join(ws, '.vscode', 'tasks.json'), JSON.stringify({
      version: '2.0.0',
      tasks: [{ label: 'test:ci', type: 'shell', command: 'npm run test:ci', group: { kind: 'test', isDefault: true } }],
    }));
    await s.open(ws);
    await runCommand(page, ui.fix);

    const toast = await waitForNotification(page, /test:ci/, 60_000);
    const text = await toast.innerText();
    assert.match(text, /no "test:ci" script/, text);
    assert.equal(chatRequests().length, 0, 'the model was never asked');
    await screenshot(page, 'h-setup-error');
    await notificationButton(toast, 'Open tasks.json').click();
    await waitForActiveTab(page, 'tasks.json', 20_000);
    await eventually('the status bar to say the tests could not run', () => statusBarText(page, ui.statusItemId), (t) => /the tests could not run/.test(t));
    await clearNotifications(page);
  });

  it('j. a model at a closed port: the toast says why with its buttons, and no count shows, since no test ran', async function () {
    const page = s.browser.page;
    const ws = s.farm.copy('calc', 'j-closed-port');
    const gate = TestGate.in(join(s.farm.root, 'gate-j'));
    gate.install(ws);
    const port = await closedPort();
    mkdirSync(join(ws, '.vscode'), { recursive: true });
    writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'greenloop.model.baseUrl': `http://127.0.0.1:${port}/v1` }));
    const asked = s.model.requests.length;
    await s.open(ws);
    await runCommand(page, ui.fix);

    const toast = await waitForNotification(page, /Could not connect/, 60_000);
    assert.match(await toast.innerText(), new RegExp(`Could not connect to the model server at http://127\\.0\\.0\\.1:${port}/v1 \\(connection refused\\)`));
    for (const button of ['Open Settings', 'Select model']) assert.equal(await notificationButton(toast, button).count(), 1, `the toast offers ${button}`);
    const shown = await eventually('the status bar to say the run ended', () => statusBarText(page, ui.statusItemId), (t) => t !== '' && !/Greenloop \d+\/\d+/.test(t));
    assert.equal(shown, 'Greenloop: the model cannot be used · tests not run', 'no "0 failing · at baseline": no test ever ran');
    await openViewContainer(page, ui.container);
    const rows = await eventually('the run in the Loop history', () => treeRows(page, ui.historyView), (r) => r.some((row) => row.label === 'The model failed'));
    const row = rows.find((r) => r.label === 'The model failed')!;
    assert.match(row.description, / · no test count$/, `the Loop history row counts nothing: ${row.description}`);
    assert.equal(gate.runs(), 0, 'the test command never ran');
    assert.equal(s.model.requests.length, asked, 'the scripted model was never asked');
    await screenshot(page, 'j-closed-port');
    await clearNotifications(page);

    // The status bar opens the run: its panel counts nothing either, and leads with the buttons that fix the setting.
    await statusBarItem(page, ui.statusItemId).click();
    await waitForActiveTab(page, 'Greenloop: j-closed-port');
    const panel = webviewDocument(page);
    const where = await eventually('the panel to show the run', () => panel.locator('#workspace').innerText(), (t) => t.length > 0 && t !== 'Loading…');
    assert.equal(where, 'No edit was made, and the tests gave no count.');
    assert.match(await panel.locator('#run-meta').innerText(), / · no test count · 0 tokens$/);
    assert.doesNotMatch(await panel.locator('body').innerText(), /\d+ failing/);
    assert.deepEqual(await panel.locator('#setup-actions button').allInnerTexts(), ['Open Settings', 'Select model']);
    await screenshot(page, 'j-closed-port-panel');
  });

  it('i. the notification says the baseline runs; the Testing view lists the run\'s tests; its profile fixes the selected one', async function () {
    const page = s.browser.page;
    const ws = s.farm.copy('calc', 'i-testing-view');
    // The first test run waits for this spec: what the person sees during it is read with no clock involved.
    const gate = TestGate.in(join(s.farm.root, 'gate-i'));
    gate.install(ws);
    gate.hold(1);
    // One real fix, then edits that change nothing: the run stops with `multiplies` still failing.
    s.model.push(answer(FIX_ADD), answer(COMMENT('first look')), answer(COMMENT('second look')));
    await s.open(ws);
    await runCommand(page, ui.fix);

    await gate.started(1);
    const progress = await waitForNotification(page, 'Greenloop: running the tests (baseline)', 60_000);
    assert.equal(await notificationButton(progress, 'Cancel').count(), 1, 'the baseline can be cancelled');
    // The baseline is held, so this is what the status bar says until the spec releases it.
    await eventually('the status bar to say the baseline runs, with no count before it ends', () => statusBarText(page, ui.statusItemId), (t) => /^Greenloop 0\/8 · checking tests · /.test(t));
    await screenshot(page, 'i-baseline-running');
    gate.release(1);

    assert.equal((await runSaved(s.server, ws, 1)).outcome, 'escalated', 'the run escalated');
    await waitForActiveTab(page, 'Greenloop: i-testing-view');
    await eventually('the status bar to say the run escalated', () => statusBarText(page, ui.statusItemId), (t) => /escalated · 1 failing/.test(t));
    await hidePanel(page);

    await openViewContainer(page, 'Testing');
    const explorer = page.locator('.pane').filter({ has: page.locator('.pane-header h3.title', { hasText: /Test Explorer/ }) });
    const rows = await eventually('the Greenloop tests in the Test Explorer', async () => {
      // Expand collapsed rows (the controller, a file) as a person would, then read what shows.
      for (const twistie of await explorer.locator('.monaco-list-row[aria-expanded="false"]').all()) await twistie.click().catch(() => undefined);
      return explorer.locator('.monaco-list-row').allInnerTexts();
    }, (r) => r.some((t) => t.includes('multiplies')) && r.some((t) => t.includes('adds')));
    const states = await explorer.locator('.monaco-list-row').evaluateAll((els) => els.map((el) => ({
      text: (el as HTMLElement).innerText,
      icon: el.querySelector('.codicon')?.className ?? '',
    })));
    const adds = states.find((r) => r.text.includes('adds'));
    const multiplies = states.find((r) => r.text.includes('multiplies'));
    assert.match(adds?.icon ?? '', /pass/, `adds shows as passed: ${JSON.stringify(states)}`);
    assert.match(multiplies?.icon ?? '', /error|fail/, `multiplies shows as failed: ${JSON.stringify(states)}`);
    await screenshot(page, 'i-testing-view');

    // "Run Test" on the failing test: the Testing view's profile runs a loop focused on that one test.
    const asked = chatRequests().length;
    assert.equal(s.model.remaining(), 0, 'the first run used every scripted answer');
    s.model.push(answer(FIX_MUL));
    const row = explorer.locator('.monaco-list-row').filter({ hasText: 'multiplies' }).first();
    await row.hover();
    await row.getByRole('button', { name: 'Run Test' }).click();
    assert.equal((await runSaved(s.server, ws, 2)).outcome, 'green', 'the focused run ended green');
    await eventually('the status bar to show the focused run green', () => statusBarText(page, ui.statusItemId), (t) => t === 'Greenloop green');
    const said = await eventually('the run\'s closing message', () => notificationCenterMessages(page), (m) => m.some((t) => t.startsWith('Greenloop: the focused test passes')));
    assert.ok(said.includes('Greenloop: the focused test passes after 1 attempt.'), JSON.stringify(said));
    assert.equal(chatRequests().length, asked + 1, 'one model call');
    assert.match(s.prompt(asked), /## Goal of this run\nMake this test pass:\n- calc > multiplies\n/, 'the run is focused on the selected test');
    assert.match(readFileSync(join(ws, 'src', 'calc.js'), 'utf8'), /return a \* b;/);
    await eventually('the Test Explorer to show the test passed', () => explorer.locator('.monaco-list-row').filter({ hasText: 'multiplies' }).first().evaluate((el) => el.querySelector('.codicon')?.className ?? ''), (icon) => /pass/.test(icon));
    await screenshot(page, 'i-focused-fix');
  });
});
