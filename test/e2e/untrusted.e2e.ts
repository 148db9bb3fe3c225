import * as assert from 'node:assert/strict';
import { screenshot } from './harness/browser';
import { formatTimings, startGreenloopSession, ui } from './harness/greenloopSession';
import type { GreenloopSession } from './harness/greenloopSession';
import { ceiling, patientTests } from './harness/patience';
import { eventually } from './harness/poll';
import { runCommand, statusBarText, waitForNotification } from './harness/workbench';
import { treeBytes } from './harness/workspaces';
import { answer, FIX_ADD } from '../support/calcAnswers';

// Scenario f of issue 6: a folder the person has not trusted. Greenloop runs the workspace's tests, i.e. its code,
// so it must not run there at all: the person is told why, the model is never asked, and no file changes.
describe('Greenloop in a real VS Code: untrusted workspace', function () {
  patientTests(240_000);
  let s: GreenloopSession;
  let started = 0;
  const times: Record<string, number> = {};

  before(async function () {
    this.timeout(ceiling(300_000));
    s = await startGreenloopSession({ trust: 'untrusted' });
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

  it('f. in Restricted Mode: a clear message, nothing runs, no model request, no file changed', async function () {
    const page = s.browser.page;
    const ws = s.farm.copy('calc', 'f-untrusted');
    const start = treeBytes(ws);
    // Were anything to run, the model would have an answer ready: a request would then show, not hang.
    s.model.push(answer(FIX_ADD));
    await s.open(ws);
    await eventually('the Restricted Mode indicator', () => statusBarText(page), (t) => t.includes('Restricted Mode'));
    const banner = await page.locator('.part.banner').innerText();
    assert.match(banner, /Restricted Mode is intended for safe code browsing\. Trust this folder to enable all features\./);

    // The person runs the command anyway: Greenloop refuses before anything starts and says how to go on.
    await runCommand(page, ui.fix);
    const toast = await waitForNotification(page, /needs a trusted workspace/);
    assert.match(await toast.innerText(), /Manage Workspace Trust/, 'the message names the way out');
    await screenshot(page, 'f-untrusted');

    assert.equal(s.model.requests.length, 0, 'the model server was never asked');
    assert.deepEqual(treeBytes(ws), start, 'no file in the workspace changed');
  });
});
