import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { screenshot } from './harness/browser';
import { startGreenloopSession, ui } from './harness/greenloopSession';
import type { GreenloopSession } from './harness/greenloopSession';
import { ceiling, patientTests } from './harness/patience';
import { eventually } from './harness/poll';
import { runSaved } from './harness/savedRuns';
import { expandTreeRow, openViewContainer, runCommand, statusBarText, treeRows, waitForNotification, widenSideBar } from './harness/workbench';
import { runTestsOnDisk } from './harness/workspaces';

// Issue 12 in a real VS Code: an agent CLI as the model (greenloop.model.provider "agent"), its every model request
// through Greenloop's gateway to the scripted model, capped per attempt; the attempt's agent line in the Loop history.
const MINI_AGENT = resolve(__dirname, '../support/miniAgent.js');
const USAGE = { prompt_tokens: 100, completion_tokens: 10 };

describe('Greenloop in a real VS Code: an agent CLI as the model', function () {
  patientTests(240_000);
  let s: GreenloopSession;

  before(async function () {
    this.timeout(ceiling(300_000));
    s = await startGreenloopSession({
      settings: { 'greenloop.model.provider': 'agent', 'greenloop.agent.command': `node ${JSON.stringify(MINI_AGENT)}`, 'greenloop.agent.requestsPerAttempt': 3 },
    });
  });
  afterEach(async function () {
    await s?.afterTest(this.currentTest);
  });
  after(async function () {
    this.timeout(ceiling(120_000));
    await s?.stop();
  });

  it('runs the agent through the gateway: a looping attempt is capped, the fix is kept, the history shows each attempt\'s requests', async function () {
    const page = s.browser.page;
    const ws = s.farm.copy('calc', 'agent');
    // The agent's model is named by the workspace, as a person would for one project.
    mkdirSync(join(ws, '.vscode'), { recursive: true });
    writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'greenloop.agent.upstream': s.model.url }));
    const calc = readFileSync(join(ws, 'src', 'calc.js'), 'utf8');
    const fixed = calc.replace('return a - b;', 'return a + b;').replace('function mul(a, b) {\n  return a + b;', 'function mul(a, b) {\n  return a * b;');
    // Attempt 1 only looks around (three commands, then the cap answers); attempt 2 fixes both bugs.
    s.model.push(
      ...[1, 2, 3].map((i) => ({ content: `RUN echo looking ${i}`, usage: USAGE })),
      { content: `WRITE src/calc.js\n${fixed}`, usage: USAGE },
      { content: 'Fixed add and mul: both had the wrong operator.', usage: USAGE },
    );
    await s.open(ws);
    await runCommand(page, ui.fix);
    assert.equal((await runSaved(s.server, ws, 1)).outcome, 'green', 'the run ended green');
    await eventually('the status bar to show green', () => statusBarText(page, ui.statusItemId), (t) => t.includes('Greenloop green'));
    await waitForNotification(page, 'Greenloop: all tests pass after 2 attempts.');
    assert.equal(s.model.requests.length, 5, 'three requests in attempt 1 (the fourth answered by the gateway), two in attempt 2');
    assert.equal((await runTestsOnDisk(ws)).code, 0);

    await openViewContainer(page, ui.container);
    await eventually('the run in the Loop history', () => treeRows(page, ui.historyView), (r) => r.some((row) => row.label === 'Green'));
    await expandTreeRow(page, ui.historyView, 'Green');
    await eventually('the attempts', () => treeRows(page, ui.historyView), (r) => r.some((row) => row.label.startsWith('Attempt 1')));
    await expandTreeRow(page, ui.historyView, (await treeRows(page, ui.historyView)).find((r) => r.label.startsWith('Attempt 1'))!.label);
    const rows = await eventually('the agent line under attempt 1', () => treeRows(page, ui.historyView), (r) => r.some((row) => row.label.startsWith('agent: ')));
    assert.equal(rows.find((r) => r.label.startsWith('agent: '))!.label, 'agent: 3 requests (1 answered by Greenloop: request-cap), exit 0');
    await widenSideBar(page, 160);
    await screenshot(page, 'agent-history');
  });
});
