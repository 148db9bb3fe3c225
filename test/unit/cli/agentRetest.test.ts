// `greenloop fix --actor command` with a small real agent CLI (test/support/miniAgent.js, tools shaped as qwen's)
// whose every request goes through Greenloop's gateway to a scripted model (issue 30): an agent that runs its tests
// again on the very files its last test run saw — its edit in between failed — has stopped getting anywhere, and the
// attempt ends there; an agent whose test runs follow real edits is never cut short by that.
import { strict as assert } from 'assert';
import {
  fixesOneAtATimeAfterASlip, oneFixThenStuckRereading, sameGrowingEditForever, sameWrongEditRereading,
} from '../../support/agentScenarios';
import { fixWithMiniAgent as fix } from '../support/miniAgentFix';

describe('greenloop fix with an agent CLI: a test run on the files the last one ran on', function () {
  this.timeout(120_000);

  it('ends the attempt at the first test run on unchanged files: the same wrong edit, failing from its second try', async () => {
    const r = await fix(sameWrongEditRereading());
    assert.equal(r.report.outcome, 'escalated', r.stderr);
    // read, edit, test, read, edit (fails), test: the second test run saw the first one's files and failures.
    assert.equal(r.stops[0], 'same-files-retested', `stopped by: ${r.stops.join(', ')}`);
    assert.equal(r.requests[0], 6);
    assert.ok(r.report.requests <= 14, `${r.report.requests} requests`);
    assert.equal(r.report.requests, r.served, 'report requests = requests the model served');
    assert.equal(r.failingAtEnd, 3);
  });

  it('keeps the one real fix, then ends the stuck attempt at its second test run on the same files @heavy', async () => {
    // --patience 1: the attempt after the fix is the one that shows it.
    const r = await fix(oneFixThenStuckRereading(), ['--patience', '1']);
    assert.equal(r.report.iterations[0].verdict, 'progress', r.stderr);
    assert.equal(r.failingAtEnd, 2);
    // The first attempt's test runs follow real edits (the fix, then the wrong edit); its third run is the stall.
    assert.deepEqual(r.stops, ['tests-stalled', 'same-files-retested']);
    assert.deepEqual(r.requests, [9, 6]);
    assert.equal(r.report.requests, r.served);
  });

  it('never cuts short test runs that follow real edits, even when they fail the same tests @heavy', async () => {
    // Each edit appends one more comment: the files change before every run, so the files never stop it; the same
    // edit call again, the tests failing as before it, does (issue 38: read, edit, test, edit, test).
    const stuck = await fix(sameGrowingEditForever(), ['--max-iterations', '1']);
    assert.deepEqual(stuck.stops, ['repeated-tool-call']);
    assert.deepEqual(stuck.requests, [5]);
    // Runs after real fixes, with one harmless edit between them: never stopped, green in one attempt.
    const fixing = await fix(fixesOneAtATimeAfterASlip());
    assert.equal(fixing.report.outcome, 'green', fixing.stderr);
    assert.deepEqual(fixing.stops, [null]);
    assert.equal(fixing.failingAtEnd, 0);
  });
});
