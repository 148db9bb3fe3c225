import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { screenshot } from './harness/browser';
import { startGreenloopSession, ui } from './harness/greenloopSession';
import type { GreenloopSession } from './harness/greenloopSession';
import { eventually } from './harness/poll';
import { clearNotifications, hidePanel, notificationButton, openViewContainer, runCommand, statusBarText, waitForNotification } from './harness/workbench';
import { waitForActiveTab } from './harness/webviewPanel';
import { answer, COMMENT, FIX_ADD } from '../support/calcAnswers';

// Issue 11: a setup problem ends before any model call in one sentence with the button that fixes it (h), and the
// Testing view shows the run's tests — the one fixed as passed, the one still failing with its message (i).
describe('Greenloop in a real VS Code: setup errors and the Testing view', function () {
  this.timeout(240_000);
  let s: GreenloopSession;

  before(async function () {
    this.timeout(300_000);
    s = await startGreenloopSession();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await s?.reportFailure(this.currentTest.title);
  });
  after(async () => {
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
    assert.match(await statusBarText(page, ui.statusItemId), /the tests could not run/, 'no failing count for tests that never ran');
    await clearNotifications(page);
  });

  it('i. the Testing view lists the run\'s tests: the fixed one passed, the one still failing with its message', async function () {
    const page = s.browser.page;
    const ws = s.farm.copy('calc', 'i-testing-view');
    // One real fix, then edits that change nothing: the run stops with `multiplies` still failing.
    s.model.push(answer(FIX_ADD), answer(COMMENT('first look')), answer(COMMENT('second look')), answer(COMMENT('third look')));
    await s.open(ws);
    await runCommand(page, ui.fix);
    await waitForActiveTab(page, 'Greenloop: i-testing-view', 120_000);
    await eventually('the run to escalate', () => statusBarText(page, ui.statusItemId), (t) => /escalated · 1 failing/.test(t), 60_000);
    await hidePanel(page);

    await openViewContainer(page, 'Testing');
    const explorer = page.locator('.pane').filter({ has: page.locator('.pane-header h3.title', { hasText: /Test Explorer/ }) });
    const rows = await eventually('the Greenloop tests in the Test Explorer', async () => {
      // Expand collapsed rows (the controller, a file) as a person would, then read what shows.
      for (const twistie of await explorer.locator('.monaco-list-row[aria-expanded="false"]').all()) await twistie.click().catch(() => undefined);
      return explorer.locator('.monaco-list-row').allInnerTexts();
    }, (r) => r.some((t) => t.includes('multiplies')) && r.some((t) => t.includes('adds')), 30_000);
    const states = await explorer.locator('.monaco-list-row').evaluateAll((els) => els.map((el) => ({
      text: (el as HTMLElement).innerText,
      icon: el.querySelector('.codicon')?.className ?? '',
    })));
    const adds = states.find((r) => r.text.includes('adds'));
    const multiplies = states.find((r) => r.text.includes('multiplies'));
    assert.match(adds?.icon ?? '', /pass/, `adds shows as passed: ${JSON.stringify(states)}`);
    assert.match(multiplies?.icon ?? '', /error|fail/, `multiplies shows as failed: ${JSON.stringify(states)}`);
    await screenshot(page, 'i-testing-view');
  });
});
