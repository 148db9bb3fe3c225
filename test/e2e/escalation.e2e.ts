import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { screenshot } from './harness/browser';
import { formatTimings, startGreenloopSession, ui } from './harness/greenloopSession';
import type { GreenloopSession } from './harness/greenloopSession';
import { eventually } from './harness/poll';
import { waitForActiveTab, webviewDocument } from './harness/webviewPanel';
import { hidePanel, openViewContainer, runCommand, statusBarText, treeRows } from './harness/workbench';
import { runTestsOnDisk, treeBytes } from './harness/workspaces';
import { answer, COMMENT, FIX_ADD, FIX_MUL } from '../support/calcAnswers';

// Scenarios b and c of issue 6: a model that gets stuck makes the loop escalate; the person reads why in the
// escalation panel and rolls back, or gives a hint and more budget and lets the loop go on.
describe('Greenloop in a real VS Code: escalation panel', function () {
  this.timeout(240_000);
  let s: GreenloopSession;
  const times: Record<string, number> = {};
  let started = 0;

  before(async function () {
    this.timeout(300_000);
    // A small attempt budget makes the extra budget of a retry easy to see: 5 → 8.
    s = await startGreenloopSession({ settings: { 'greenloop.maxIterations': 5 } });
  });
  beforeEach(() => (started = Date.now()));
  afterEach(async function () {
    times[this.currentTest!.title.slice(0, 2)] = Date.now() - started;
    if (this.currentTest?.state === 'failed') await s?.reportFailure(this.currentTest.title);
  });
  after(async () => {
    await s?.stop();
    console.log(`      timings: ${formatTimings({ ...s?.timings, ...times })}`);
  });

  const status = () => statusBarText(s.browser.page, ui.statusItemId);
  const panel = () => webviewDocument(s.browser.page);

  /** Fixes add(), then gets stuck on mul(): progress, then two attempts without progress → stagnation. */
  async function runUntilStuck(ws: string): Promise<void> {
    const page = s.browser.page;
    s.model.push(answer(FIX_ADD), answer(COMMENT('first idea')), answer(COMMENT('second idea')));
    await s.open(ws);
    await runCommand(page, ui.fix);
    await waitForActiveTab(page, `Greenloop: ${ws.split('/').pop()}`);
    await eventually('the panel to say why the loop stopped', () => panel().locator('#reason').innerText(), (t) => t.length > 0 && t !== 'Loading…', 60_000);
  }

  it('b. escalates on stagnation, the panel says why, and Roll back to baseline restores every byte', async function () {
    const page = s.browser.page;
    const ws = s.farm.copy('calc', 'b-stuck');
    const start = treeBytes(ws);
    await runUntilStuck(ws);

    assert.equal(await panel().locator('#heading').innerText(), 'Greenloop: Stuck: no progress');
    assert.match(await panel().locator('#reason').innerText(), /did not reduce the failing tests/);
    assert.match(await status(), /Greenloop escalated · 1 failing/);
    // The loop left the best state: add() fixed, so the rollback below has something to undo.
    assert.match(readFileSync(join(ws, 'src', 'calc.js'), 'utf8'), /return a \+ b;\n\}\n\nfunction mul/);
    await hidePanel(page);
    await screenshot(page, 'b-escalation-panel');

    assert.equal(await panel().locator('#workspace').innerText(), 'Workspace at the best state: 1 failing.');
    await panel().getByRole('button', { name: 'Roll back to baseline' }).click();
    // Every surface follows the run's state: the panel, the status bar and the Loop history all say baseline, 2 failing.
    await eventually('the panel to confirm the rollback', () => panel().locator('#workspace').innerText(), (t) => t === 'Workspace at the baseline (as before the run): 2 failing.');
    assert.deepEqual(treeBytes(ws), start, 'every file is byte for byte the starting copy');
    assert.equal(await panel().getByRole('button', { name: 'Roll back to baseline' }).isDisabled(), true, 'no second roll back to where the workspace already is');
    assert.equal(await panel().getByRole('button', { name: 'Roll back to best' }).isDisabled(), false);
    await eventually('the status bar to follow the rollback', status, (t) => /Greenloop escalated · 2 failing · at baseline/.test(t), 10_000);
    await openViewContainer(page, ui.container);
    await eventually('the Loop history to follow the rollback', () => treeRows(page, ui.historyView), (r) => r.some((row) => row.label === 'Stuck: no progress' && / · 2 → 2 failing$/.test(row.description)), 10_000);
    const onDisk = await runTestsOnDisk(ws);
    assert.match(onDisk.output, /# fail 2/, 'both original failures are back');
    await screenshot(page, 'b-rolled-back');
  });

  it('c. Retry with hint: the hint reaches the model, the extra budget shows, and the loop goes on to green', async function () {
    const page = s.browser.page;
    const ws = s.farm.copy('calc', 'c-hint');
    const hint = 'mul() must multiply its arguments; the header comment is irrelevant.';
    await runUntilStuck(ws);
    const asked = s.model.requests.length;

    await panel().getByLabel('Hint for the model (optional)').fill(hint);
    await panel().getByLabel('Attempts').fill('3');
    assert.match(await panel().locator('#grant-summary').innerText(), /3 (more )?attempts?/);
    await screenshot(page, 'c-hint-typed');
    // The model "thinks" for a few seconds so the person can see the new budget in the status bar.
    s.model.push(answer(FIX_MUL, 4000));
    await panel().getByRole('button', { name: 'Retry with hint' }).click();

    const running = await eventually('the status bar to show the extra budget', status, (t) => /Greenloop \d\/6 /.test(t), 30_000);
    // The grant counts from where the run stopped: 3 attempts used + 3 granted, whatever the first limit had left.
    assert.match(running, /Greenloop 4\/6 /, 'attempt 4 of 3 used + 3 granted');
    await screenshot(page, 'c-retry-running');
    await eventually('the retried run to end green', status, (t) => t.includes('Greenloop green'), 60_000);

    assert.equal(s.model.requests.length, asked + 1, 'one more model call');
    assert.ok(s.prompt(asked).includes(hint), 'the prompt after the retry carries the hint word for word');
    assert.ok(!s.prompt(asked - 1).includes(hint), 'no earlier prompt had it');
    const onDisk = await runTestsOnDisk(ws);
    assert.equal(onDisk.code, 0, `npm test passes after the retry:\n${onDisk.output}`);
    await eventually('the panel to show the run green with the hint it was given', () => panel().locator('#hints').innerText(), (t) => t.includes(hint));
    await screenshot(page, 'c-green-after-hint');
    // Checked last so that the rest of the scenario is known to work when only this fails.
    assert.match(running, /Greenloop 4\/6 · 1 failing/, 'while the retry asks the model, the status bar counts the failing tests of the state it resumes from (1), not of the baseline (2)');
  });
});
