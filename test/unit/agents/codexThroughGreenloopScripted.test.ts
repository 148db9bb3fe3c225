// The real Codex CLI driven through Greenloop by a scripted Responses-API model that calls Codex's own tools: a fix
// is applied and verified green; a weakened test is put back while the real fixes are kept.
import * as assert from 'node:assert/strict';
import { runWithGreenloop } from '../../../bench/agents/withGreenloop';
import { oneShotFix, twoFixesAndWeakenedTest } from '../../support/agentScenarios';
import { installCodex } from '../../support/codexAgent';
import { ensureCliBuilt } from '../support/cli';
import { REAL_AGENT_TEST_MS } from '../../support/agentTimeouts';

describe('greenloop fix --agent codex with a scripted tool-calling model (the real Codex CLI)', function () {
  // Verdicts are counts (requests, attempts, failing tests); this limit only catches a hang (see agentTimeouts.ts).
  this.timeout(REAL_AGENT_TEST_MS);
  let bin = '';

  before(async function () {
    ensureCliBuilt();
    try {
      bin = await installCodex();
    } catch (err) {
      // A real agent that cannot be installed fails the suite with its name; it is never skipped.
      throw new Error(`The agent CLI could not be installed: ${(err as Error).message}`);
    }
  });

  it('goes green on a one-shot fix made with Codex\'s own tools, with the report counting what the model served', async () => {
    const r = await runWithGreenloop(oneShotFix(), { agent: 'codex', bin });
    assert.equal(r.report.outcome, 'green', r.stderr);
    assert.equal(r.failingAtEnd, 0);
    assert.equal(r.report.requests, r.served.requests);
    assert.deepEqual(r.report.tokens, { prompt: r.served.prompt, completion: r.served.completion });
  });

  it('puts back the weakened test and keeps the two real fixes', async () => {
    const r = await runWithGreenloop(twoFixesAndWeakenedTest(), { agent: 'codex', bin });
    assert.equal(r.testsIntact, true);
    assert.equal(r.failingAtEnd, 1, r.stderr);
    assert.deepEqual(r.report.iterations[0].reverted.map((x: { path: string }) => x.path), ['test/calc.test.js']);
  });
});
