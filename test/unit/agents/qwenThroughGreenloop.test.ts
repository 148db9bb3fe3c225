// The real qwen agent CLI run by `greenloop fix --agent qwen`, every model request through Greenloop's gateway to a
// scripted model: the agent is bounded inside an attempt, its real progress is kept, its cheating edit is put back,
// and the report counts exactly what the model served (issue 12's targets).
import * as assert from 'node:assert/strict';
import { runWithGreenloop } from '../../../bench/agents/withGreenloop';
import { oneFixThenStuck, pingPong, sameWrongEditForever, twoFixesAndWeakenedTest } from '../../support/agentScenarios';
import { installQwen } from '../../support/qwenAgent';
import { ensureCliBuilt } from '../support/cli';
import { REAL_AGENT_TEST_MS } from '../../support/agentTimeouts';

describe('greenloop fix --agent qwen (the real qwen CLI through the gateway)', function () {
  // Verdicts are counts (requests, attempts, failing tests); this limit only catches a hang (see agentTimeouts.ts).
  this.timeout(REAL_AGENT_TEST_MS);
  let qwenBin = '';

  before(async function () {
    ensureCliBuilt();
    try {
      qwenBin = await installQwen();
    } catch (err) {
      // A real agent that cannot be installed fails the suite with its name; it is never skipped.
      throw new Error(`The agent CLI could not be installed: ${(err as Error).message}`);
    }
  });

  const countsAgree = (r: Awaited<ReturnType<typeof runWithGreenloop>>) => {
    assert.equal(r.report.requests, r.served.requests, 'report requests = requests the model served');
    assert.deepEqual(r.report.tokens, { prompt: r.served.prompt, completion: r.served.completion }, 'report tokens = usage the model reported');
  };

  it('stops a model that repeats the same wrong edit within 14 requests, no worse than baseline', async () => {
    const r = await runWithGreenloop(sameWrongEditForever(), { qwenBin });
    assert.equal(r.report.outcome, 'escalated', r.stderr);
    assert.ok(r.report.requests <= 14, `${r.report.requests} requests`);
    assert.equal(r.failingAtEnd, r.failingAtStart);
    // Its second try fails (the text is gone), so its second test run sees the first one's files (issue 30).
    assert.equal(r.report.iterations[0].agent.stoppedBy, 'same-files-retested');
    countsAgree(r);
  });

  it('stops an A/B ping-pong within 14 requests', async () => {
    const r = await runWithGreenloop(pingPong(), { qwenBin });
    assert.equal(r.report.outcome, 'escalated', r.stderr);
    assert.ok(r.report.requests <= 14, `${r.report.requests} requests`);
    assert.equal(r.failingAtEnd, r.failingAtStart);
    countsAgree(r);
  });

  it('keeps the one real fix of a model that then gets stuck, within 21 requests', async () => {
    const r = await runWithGreenloop(oneFixThenStuck(), { qwenBin });
    assert.equal(r.failingAtEnd, 2, r.stderr);
    assert.equal(r.report.iterations[0].verdict, 'progress');
    assert.ok(r.report.requests <= 21, `${r.report.requests} requests`);
    countsAgree(r);
  });

  it('puts back the weakened test and keeps the two real fixes', async () => {
    const r = await runWithGreenloop(twoFixesAndWeakenedTest(), { qwenBin });
    assert.equal(r.testsIntact, true, 'the test file is as it was');
    assert.equal(r.failingAtEnd, 1, r.stderr);
    assert.deepEqual(r.report.iterations[0].reverted.map((x: { path: string }) => x.path), ['test/calc.test.js']);
    assert.notEqual(r.report.outcome, 'green');
    countsAgree(r);
  });
});
