// The real qwen agent CLI driven by the scripted agent model: proof that the scenarios Greenloop is measured
// against do on a real agent what their names say (a model that fixes everything ends the run green; a stuck
// model keeps the agent going until someone stops it).
import * as assert from 'node:assert/strict';
import { runAgentAlone } from '../../../bench/agents/qwenAlone';
import { oneShotFix, sameWrongEditForever } from '../../support/agentScenarios';
import { installQwen } from '../../support/qwenAgent';
import { alive } from '../support/processes';
import { REAL_AGENT_TEST_MS } from '../../support/agentTimeouts';

describe('qwen alone, driven by a scripted model', function () {
  // Every verdict here is decided by counts: the agent exits by itself, or the scripted model stops it at its N-th
  // request. The clocks only catch a hang — the runner's idle guard (no model request for 3 minutes) and this limit
  // (see agentTimeouts.ts) — so a slow machine never changes a result.
  this.timeout(REAL_AGENT_TEST_MS);
  let qwenBin = '';

  before(async function () {
    try {
      qwenBin = await installQwen();
    } catch (err) {
      // A real agent that cannot be installed fails the suite with its name; it is never skipped.
      throw new Error(`The agent CLI could not be installed: ${(err as Error).message}`);
    }
  });

  it('fixes calc3 and exits 0 when the model fixes all three bugs', async () => {
    const run = await runAgentAlone(oneShotFix(), { qwenBin, maxRequests: 30 });
    assert.equal(run.timedOut, false, `qwen did not finish by itself:\n${run.stderr}`);
    assert.equal(run.exitCode, 0, run.stderr);
    assert.equal(run.failingAtEnd, 0);
    assert.equal(run.stdout.trim(), 'Fixed.');
    // read, three edits, npm test, final text: every step went through qwen's own tools.
    assert.equal(run.mainRequests, 6);
    const toolResults = run.log.at(-1)!.body.messages.filter((m: { role: string }) => m.role === 'tool');
    assert.equal(toolResults.length, 5);
    assert.ok(run.tokens.prompt > 0 && run.tokens.completion > 0);
  });

  it('keeps going on the same wrong edit until it is stopped, and the stop leaves no process behind', async () => {
    const pids: number[] = [];
    const run = await runAgentAlone(sameWrongEditForever(), { qwenBin, maxRequests: 20, onSpawn: (pid) => pids.push(pid) });
    assert.equal(run.stoppedBy, 'requests', `qwen ended by itself (exit ${run.exitCode}) after ${run.requests} requests:\n${run.stderr}`);
    assert.equal(run.timedOut, true);
    assert.equal(run.exitCode, null);
    assert.equal(run.failingAtEnd, 3);
    assert.ok(run.requests >= 20);
    assert.equal(pids.length, 1);
    assert.equal(alive(pids[0]!), false);
  });
});
