// `greenloop fix --actor command` with a small real agent CLI (test/support/miniAgent.js, tools shaped as qwen's)
// whose every request goes through Greenloop's gateway to a scripted model (issue 38): an agent that makes the same
// edit call again after a test run, and whose tests then fail the same tests with the same messages, is polling
// without progress — though its edit, whose text is still there after it, changes the files every round. The attempt
// ends there and the next prompt names the call; an attempt whose edit calls are its previous attempt's, with the
// tests saying the same, ends the run. An agent whose repeated edit changes what the tests say is never cut short.
import { strict as assert } from 'assert';
import { growingEditOncePerAttempt, oneFixThenGrowingEditRereading, sameGrowingEditRereading } from '../../support/agentScenarios';
import { countsOnePerAttempt, countsToThree, PARTS3_FIXTURE, sameFixInThreeFiles, TALLY_FIXTURE } from '../../support/repeatScenarios';
import { fixWithMiniAgent as fix } from '../support/miniAgentFix';

/** The growing edit of agentScenarios.ts as the gateway names it: the workspace's path left out. */
const GROWING_EDIT = 'edit {"file_path":"calc.js","new_string":"function add(a, b) { // operands checked","old_string":"function add(a, b) {"}';

describe('greenloop fix with an agent CLI: the same edit call again, the tests saying the same', function () {
  this.timeout(120_000);

  it('ends the attempt at the test run after the repeated edit, names the call in the next prompt, and stops the run when the next attempt repeats it', async () => {
    const r = await fix(sameGrowingEditRereading());
    assert.equal(r.report.outcome, 'escalated', r.stderr);
    // read, edit, test, read, the same edit, test: that test run failed as the one before it did.
    assert.deepEqual(r.stops, ['repeated-tool-call', 'repeated-tool-call'], `requests: ${r.requests.join(', ')}`);
    assert.deepEqual(r.requests, [6, 6]);
    assert.equal(r.report.requests, r.served, 'report requests = requests the model served');
    assert.equal(r.report.reason, 'repeated-proposal');
    assert.match(r.report.reasonText, /Attempt 2 made the same edit calls as attempt 1 \(`edit \{"file_path":"calc\.js"/);
    assert.equal(r.tasks.length, 2);
    assert.ok(r.tasks[1]!.includes(`Greenloop ended that attempt when you made this call again and your tests then failed the same tests with the same messages as before it: \`${GROWING_EDIT}\``), r.tasks[1]);
    assert.ok(!r.tasks[0]!.includes('Greenloop ended that attempt'));
    assert.equal(r.failingAtEnd, 3);
  });

  it('stops an agent whose every attempt makes the same edit call once, the tests failing the same way, before patience would', async () => {
    const r = await fix(growingEditOncePerAttempt(), ['--patience', '3']);
    assert.equal(r.report.reason, 'repeated-proposal', r.stderr);
    assert.equal(r.report.iterations.length, 2);
    assert.deepEqual(r.stops, [null, null], 'no attempt of its was cut short: each made its edit once');
  });

  it('never ends an attempt whose repeated edit changes what the tests say: a counter it increments to three', async () => {
    const r = await fix(countsToThree(), [], TALLY_FIXTURE);
    assert.equal(r.report.outcome, 'green', r.stderr);
    assert.deepEqual(r.stops, [null]);
    assert.deepEqual(r.requests, [8]);
    assert.equal(r.failingAtEnd, 0);
  });

  it('never ends a run whose attempts repeat an edit the tests see: one step of the counter per attempt @heavy', async () => {
    const r = await fix(countsOnePerAttempt(), ['--patience', '3'], TALLY_FIXTURE);
    assert.equal(r.report.outcome, 'green', r.stderr);
    assert.equal(r.report.iterations.length, 3);
    assert.equal(r.failingAtEnd, 0);
  });

  it('never takes the same edit in another file for a repeat, though the test fails with the same message after each', async () => {
    const r = await fix(sameFixInThreeFiles(), [], PARTS3_FIXTURE);
    assert.equal(r.report.outcome, 'green', r.stderr);
    assert.deepEqual(r.stops, [null]);
    assert.equal(r.failingAtEnd, 0);
  });

  it('keeps the one real fix, then stops the run when the next attempt makes the same calls and gets no further, within 21 requests @heavy', async () => {
    const r = await fix(oneFixThenGrowingEditRereading());
    assert.equal(r.report.iterations[0].verdict, 'progress', r.stderr);
    assert.equal(r.failingAtEnd, 2);
    // Each attempt replays the fix (failing the second time: add is fixed) and the growing edit; its third test run is
    // also its second without progress, so that witness speaks first inside the attempt.
    assert.deepEqual(r.stops, ['tests-stalled', 'tests-stalled']);
    assert.deepEqual(r.requests, [9, 9]);
    assert.equal(r.report.reason, 'repeated-proposal');
    assert.ok(r.report.requests <= 21, `${r.report.requests} requests`);
    assert.equal(r.report.requests, r.served);
  });
});
