import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { screenshot } from './harness/browser';
import { formatTimings, startGreenloopSession, ui } from './harness/greenloopSession';
import type { GreenloopSession } from './harness/greenloopSession';
import { heldAnswer } from './harness/heldAnswer';
import { ceiling, patientTests } from './harness/patience';
import { eventually } from './harness/poll';
import { stillRunning } from './harness/processGroup';
import { runSaved } from './harness/savedRuns';
import { clickTreeRow, expandTreeRow, openFile, openViewContainer, problemsCounts, reloadWindow, runCommand, statusBarText, treeRows, waitForNotification, widenSideBar } from './harness/workbench';
import { fixturesDir, runTestsOnDisk } from './harness/workspaces';
import { waitForActiveTab } from './harness/webviewPanel';
import { answer, edit, FIX_ADD, FIX_MUL, WEAKEN_TEST } from '../support/calcAnswers';

// Scenarios a, g, d, e of issue 6: the person runs "Fix until green" in a real VS Code (code-server in Chromium),
// watches the status bar and the Loop history, reloads the window, and presses Stop; each is checked on disk too.
describe('Greenloop in a real VS Code: Fix until green', function () {
  patientTests(240_000);
  let s: GreenloopSession;
  const times: Record<string, number> = {};
  let started = 0;

  before(async function () {
    this.timeout(ceiling(300_000));
    s = await startGreenloopSession({ env: (root) => ({ GREENLOOP_E2E_PID_FILE: join(root, 'hang.pid') }) });
  });
  beforeEach(() => (started = Date.now()));
  afterEach(async function () {
    times[this.currentTest!.title.slice(0, 2)] = Date.now() - started;
    await s?.afterTest(this.currentTest);
  });
  after(async function () {
    this.timeout(ceiling(120_000));
    await s?.stop();
    console.log(`      timings: ${formatTimings({ ...s?.timings, ...times })}`);
  });

  const status = () => statusBarText(s.browser.page, ui.statusItemId);
  const calc = (ws: string) => readFileSync(join(ws, 'src', 'calc.js'), 'utf8');

  it('a. fixes until green: budget in the status bar, tests pass on disk, the run and its attempts in the history', async function () {
    const page = s.browser.page;
    const ws = s.farm.copy('calc', 'a-green');
    // The second answer waits while the person watches the status bar, as a real model takes its time.
    const second = heldAnswer(FIX_MUL);
    s.model.push(answer(FIX_ADD), second.step);
    await s.open(ws);
    await runCommand(page, ui.fix);

    const running = await eventually('the status bar to show the attempt against its budget', status, (t) => /Greenloop 2\/8 · 1 failing/.test(t), 60_000);
    assert.match(running, /tok/, 'the token budget is shown too');
    await screenshot(page, 'a-status-bar-running');
    second.release();

    assert.equal((await runSaved(s.server, ws, 1)).outcome, 'green', 'the run ended green');
    await eventually('the status bar to show green', status, (t) => t.includes('Greenloop green'));
    await waitForNotification(page, 'Greenloop: all tests pass after 2 attempts.');
    assert.equal(s.model.requests.length, 2, 'two model calls, one per attempt');
    assert.match(s.prompt(0), /calc > adds/, 'the first prompt names the failing test');

    const onDisk = await runTestsOnDisk(ws);
    assert.equal(onDisk.code, 0, `npm test passes in the workspace after the run:\n${onDisk.output}`);
    assert.match(calc(ws), /return a \* b;/);

    await openViewContainer(page, ui.container);
    const runs = await eventually('the run in the Loop history', () => treeRows(page, ui.historyView), (r) => r.length >= 1 && r[0].label === 'Green');
    assert.equal(runs.length, 1, `one run in the history, saw ${JSON.stringify(runs)}`);
    assert.match(runs[0].description, /2 → 0 failing/);
    await expandTreeRow(page, ui.historyView, 'Green');
    const rows = await eventually('the attempts under the run', () => treeRows(page, ui.historyView), (r) => r.some((row) => row.label.startsWith('Attempt 2')));
    assert.deepEqual(rows.filter((r) => r.level === 2).map((r) => r.label), ['Open run report', 'Attempt 1: progress', 'Attempt 2: green']);
    assert.match(rows.find((r) => r.label === 'Attempt 1: progress')!.description, /^1 failing · /);
    await widenSideBar(page, 160);
    await screenshot(page, 'a-history');
  });

  it('g. reloads the window: the history of the run is still there', async function () {
    const page = s.browser.page;
    const before = await treeRows(page, ui.historyView);
    assert.ok(before.some((r) => r.label === 'Green'), 'scenario a left a run in the history');
    await reloadWindow(page);
    await openViewContainer(page, ui.container);
    const runs = await eventually('the run after the reload', () => treeRows(page, ui.historyView), (r) => r.some((row) => row.label === 'Green'));
    assert.match(runs.find((r) => r.label === 'Green')!.description, /2 → 0 failing/);
    await expandTreeRow(page, ui.historyView, 'Green');
    const rows = await eventually('its attempts after the reload', () => treeRows(page, ui.historyView), (r) => r.some((row) => row.label === 'Attempt 2: green'));
    assert.ok(rows.some((r) => r.label === 'Attempt 1: progress'));
    await screenshot(page, 'g-history-after-reload');
  });

  it('d. refuses a model that edits a test file: invalid edit in the history, the test file unchanged', async function () {
    const page = s.browser.page;
    const ws = s.farm.copy('calc', 'd-test-edit');
    const testFile = join(ws, 'test', 'calc.test.js');
    const testBefore = readFileSync(testFile);
    const asked = s.model.requests.length;
    s.model.push(answer(WEAKEN_TEST), answer(FIX_ADD), answer(FIX_MUL));
    await s.open(ws);
    await runCommand(page, ui.fix);
    assert.equal((await runSaved(s.server, ws, 1)).outcome, 'green', 'the run ended green');
    await eventually('the status bar to show green', status, (t) => t.includes('Greenloop green'));

    assert.deepEqual(readFileSync(testFile), testBefore, 'the protected test file is byte for byte as before');
    assert.equal(s.model.requests.length - asked, 3);
    assert.match(s.prompt(asked + 1), /test\/calc\.test\.js/, 'the next prompt tells the model which file it may not edit');

    await openViewContainer(page, ui.container);
    await eventually('the run in the Loop history', () => treeRows(page, ui.historyView), (r) => r.some((row) => row.label === 'Green'));
    await expandTreeRow(page, ui.historyView, 'Green');
    const rows = await eventually('the refused attempt', () => treeRows(page, ui.historyView), (r) => r.some((row) => row.label.startsWith('Attempt 3')));
    assert.deepEqual(rows.filter((r) => r.label.startsWith('Attempt')).map((r) => r.label), ['Attempt 1: edit refused', 'Attempt 2: progress', 'Attempt 3: green']);
    await widenSideBar(page, 160);
    await screenshot(page, 'd-invalid-edit-in-history');
  });

  it('e. stops during a hanging test run: the loop ends at the best state and no test process is left', async function () {
    const page = s.browser.page;
    const ws = s.farm.copy('calc', 'e-stop');
    cpSync(join(fixturesDir, 'hang', 'hang.test.js'), join(ws, 'test', 'hang.test.js'));
    const pidFile = join(s.farm.root, 'hang.pid');
    s.model.push(answer(FIX_ADD), answer(FIX_MUL));
    await s.open(ws);
    await runCommand(page, ui.fix);

    // Attempt 2 fixes mul(), which sends the suite into its endless wait.
    // The file exists a moment before its pid is in it.
    await eventually('the test run of attempt 2 to hang in its sleep', async () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', Boolean, 90_000);
    const sleepPid = Number(readFileSync(pidFile, 'utf8'));
    assert.deepEqual(stillRunning([sleepPid]), [sleepPid], 'the hanging test is running before Stop');
    await screenshot(page, 'e-running-before-stop');

    await runCommand(page, ui.stop);
    await waitForNotification(page, 'Greenloop stopped; the workspace is at the best state.', 60_000);
    await eventually('the status bar to say the run stopped', status, (t) => /Greenloop stopped · 1 failing/.test(t));
    await screenshot(page, 'e-stopped');

    // Ended, whenever the busy kernel gets to it: what may not happen is a process that stays.
    await eventually('Stop to end the hanging test process', async () => stillRunning([sleepPid]), (left) => left.length === 0);
    const testProcesses = async () => s.server.processTree().filter((pid) => {
      try {
        return /node --test|sleep 600/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '));
      } catch {
        return false;
      }
    });
    await eventually('no test process of the run left under code-server', testProcesses, (left) => left.length === 0);
    // Best state = after attempt 1: add() fixed, mul() still broken (so the suite no longer hangs).
    assert.match(calc(ws), /return a \+ b;\n\}\n\nfunction mul\(a, b\) \{\n  return a \+ b;/);
    const onDisk = await runTestsOnDisk(ws);
    assert.match(onDisk.output, /# fail 1/, `exactly the one test attempt 2 would have fixed fails on disk:\n${onDisk.output}`);
  });

  // Issue 24: the Problems view as the diagnostic half of the witness. The money project's tests pass, and VS Code's
  // built-in TypeScript server reports one type error in src/format.js (checkJs); Greenloop judges what it reports.
  it('p. the Problems view as the checker: a @ts-ignore is refused and named in the next prompt, the real fix ends green and the error leaves the view', async function () {
    const page = s.browser.page;
    const ws = s.farm.copy('money', 'p-problems');
    mkdirSync(join(ws, '.vscode'));
    writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'greenloop.diagnostics.source': 'problems' }, null, 2));
    const typed = '  /** @type {number} */\n  const cents = n.toFixed(2);';
    const ignore = edit('src/format.js', typed, '  /** @type {number} */\n  // @ts-ignore\n  const cents = n.toFixed(2);', 'Silence the checker.');
    const fix = edit('src/format.js', typed, '  /** @type {string} */\n  const cents = n.toFixed(2);', 'toFixed returns a string.');
    const asked = s.model.requests.length;
    s.model.push(answer(ignore), answer(fix));
    await s.open(ws);
    // The person has the file open, so the TypeScript server reports on it: the error the run is judged on.
    await openFile(page, 'src/format.js');
    await eventually('the TypeScript error in the Problems view', () => problemsCounts(page), (c) => c.errors === 1, 90_000);
    await screenshot(page, 'p-problems-before');
    assert.equal((await runTestsOnDisk(ws)).code, 0, 'the tests pass before the run: only the Problems view has an error');

    await runCommand(page, ui.fix);
    assert.equal((await runSaved(s.server, ws, 1)).outcome, 'green', 'the run ended green');
    await eventually('the status bar to show green', status, (t) => t.includes('Greenloop green'));
    assert.equal(s.model.requests.length - asked, 2, 'two model calls: the refused @ts-ignore, then the fix');
    assert.match(s.prompt(asked), /Type 'string' is not assignable to type 'number'/, 'the first prompt names the error the Problems view shows');
    assert.match(s.prompt(asked + 1), /adds a suppression `@ts-ignore`[^\n]*instead of fixing it/, 'the next prompt names the refused suppression');
    const source = readFileSync(join(ws, 'src', 'format.js'), 'utf8');
    assert.doesNotMatch(source, /@ts-ignore/, 'the suppression was never written');
    assert.match(source, /@type \{string\}/);

    await eventually('the error to leave the Problems view', () => problemsCounts(page), (c) => c.errors === 0, 60_000);
    await screenshot(page, 'p-problems-after');
    await openViewContainer(page, ui.container);
    await expandTreeRow(page, ui.historyView, 'Green');
    const rows = await eventually('the attempts of the run', () => treeRows(page, ui.historyView), (r) => r.some((row) => row.label === 'Attempt 2: green'));
    assert.ok(rows.some((r) => r.label === 'Attempt 1: edit refused'), JSON.stringify(rows));
  });

  // Issue 41: with greenloop.candidates 2 one attempt asks for two answers; the history lists both under it, the one
  // refused for editing a test and the one chosen, each with its verdict.
  it('q. several answers per attempt: the Loop history lists each answer under its attempt, the refused one and the chosen one', async function () {
    const page = s.browser.page;
    const ws = s.farm.copy('calc', 'q-candidates');
    mkdirSync(join(ws, '.vscode'));
    writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'greenloop.candidates': 2 }, null, 2));
    const asked = s.model.requests.length;
    s.model.push(answer(WEAKEN_TEST), answer(`${FIX_ADD}\n${FIX_MUL}`));
    await s.open(ws);
    await runCommand(page, ui.fix);
    assert.equal((await runSaved(s.server, ws, 1)).outcome, 'green', 'the run ended green');
    await eventually('the status bar to show green', status, (t) => t.includes('Greenloop green'));
    assert.equal(s.model.requests.length - asked, 2, 'two answers for the one attempt');

    await openViewContainer(page, ui.container);
    await eventually('the run in the Loop history', () => treeRows(page, ui.historyView), (r) => r.some((row) => row.label === 'Green'));
    await expandTreeRow(page, ui.historyView, 'Green');
    await expandTreeRow(page, ui.historyView, 'Attempt 1: green');
    const rows = await eventually('the answers under the attempt', () => treeRows(page, ui.historyView), (r) => r.some((row) => row.label.startsWith('Answer ')));
    const answers = rows.filter((r) => r.label.startsWith('Answer ')).map((r) => r.label).sort();
    assert.deepEqual(answers, ['Answer 1: refused', 'Answer 2 (chosen): green'], JSON.stringify(rows));
    // The chosen answer's file opens its own diff: the attempt's start ↔ that answer's edit.
    await expandTreeRow(page, ui.historyView, 'Answer 2 (chosen): green');
    await clickTreeRow(page, ui.historyView, 'src/calc.js');
    await waitForActiveTab(page, 'src/calc.js (attempt 1, answer 2: before ↔ after)');
    await widenSideBar(page, 160);
    await screenshot(page, 'q-candidates-in-history');
  });
});
