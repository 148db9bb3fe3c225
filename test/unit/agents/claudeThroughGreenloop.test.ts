// The real Claude Code CLI run by `greenloop fix --agent claude`, its every model request through the gateway's
// Anthropic Messages side to a scripted model: bounded inside an attempt, its real fixes kept, its weakened test put
// back, and the report counting exactly what the model served.
import * as assert from 'node:assert/strict';
import { runWithGreenloop } from '../../../bench/agents/withGreenloop';
import { sameWrongEditForever, twoFixesAndWeakenedTest } from '../../support/agentScenarios';
import { installClaude } from '../../support/claudeAgent';
import { ensureCliBuilt } from '../support/cli';
import { REAL_AGENT_TEST_MS } from '../../support/agentTimeouts';

describe('greenloop fix --agent claude (the real Claude Code CLI through the gateway)', function () {
  // Verdicts are counts (requests, attempts, failing tests); this limit only catches a hang (see agentTimeouts.ts).
  this.timeout(REAL_AGENT_TEST_MS);
  let bin = '';

  before(async function () {
    ensureCliBuilt();
    try {
      bin = await installClaude();
    } catch (err) {
      // A real agent that cannot be installed fails the suite with its name; it is never skipped.
      throw new Error(`The agent CLI could not be installed: ${(err as Error).message}`);
    }
  });

  it('ends a same-wrong-edit loop inside each attempt and stops the run, no worse than baseline, counts equal to the model\'s', async () => {
    const r = await runWithGreenloop(sameWrongEditForever(), { agent: 'claude', bin });
    assert.equal(r.report.outcome, 'escalated', r.stderr);
    // Its second try fails (the text is gone), so its second test run sees the first one's files: the gateway stops it
    // there (issue 30), before its test runs could fail the same tests twice after the first.
    assert.equal(r.report.iterations[0].agent.stoppedBy, 'same-files-retested');
    assert.ok(r.report.requests <= 14, `${r.report.requests} requests`);
    assert.equal(r.failingAtEnd, r.failingAtStart);
    assert.equal(r.report.requests, r.served.requests);
    assert.deepEqual(r.report.tokens, { prompt: r.served.prompt, completion: r.served.completion });
  });

  it('puts back the weakened test and keeps the two real fixes', async () => {
    const r = await runWithGreenloop(twoFixesAndWeakenedTest(), { agent: 'claude', bin });
    assert.equal(r.testsIntact, true);
    assert.equal(r.failingAtEnd, 1, r.stderr);
    assert.deepEqual(r.report.iterations[0].reverted.map((x: { path: string }) => x.path), ['test/calc.test.js']);
  });
});
