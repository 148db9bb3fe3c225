// The real Codex CLI driven by the scripted Responses-API model: proof that the calc3 scenarios do on Codex what
// their names say (a model that fixes everything ends the run green; a stuck model keeps the agent going until
// someone stops it), through Codex's own exec_command tool — reads with cat, edits as apply_patch patches.
import * as assert from 'node:assert/strict';
import { runCodexAlone } from '../../../bench/agents/codexAlone';
import { oneShotFix, sameWrongEditForever } from '../../support/agentScenarios';
import { installCodex } from '../../support/codexAgent';
import { alive } from '../support/processes';
import { REAL_AGENT_TEST_MS } from '../../support/agentTimeouts';

const outputsOf = (body: { input: Array<{ type: string; output?: string }> }) =>
  body.input.filter((i) => i.type === 'function_call_output').map((i) => String(i.output));

describe('Codex CLI alone, driven by a scripted Responses model', function () {
  // Every verdict here is decided by counts: the agent exits by itself, or the scripted model stops it at its N-th
  // request. The clocks only catch a hang — the runner's idle guard (no model request for 3 minutes) and this limit
  // (see agentTimeouts.ts) — so a slow machine never changes a result.
  this.timeout(REAL_AGENT_TEST_MS);
  let codexBin = '';

  before(async function () {
    try {
      codexBin = await installCodex();
    } catch (err) {
      // A real agent that cannot be installed fails the suite with its name; it is never skipped.
      throw new Error(`The agent CLI could not be installed: ${(err as Error).message}`);
    }
  });

  it('fixes calc3 and exits 0 when the model fixes all three bugs', async () => {
    const run = await runCodexAlone(oneShotFix(), { codexBin, maxRequests: 30 });
    assert.equal(run.timedOut, false, `codex did not finish by itself:\n${run.stderr}`);
    assert.equal(run.exitCode, 0, run.stderr);
    assert.deepEqual(run.scenarioErrors, []);
    assert.equal(run.failingAtEnd, 0);
    assert.equal(run.stdout.trim(), 'Fixed.');
    // cat, three apply_patch edits, npm test, final text: every step went through codex's shell tool and succeeded.
    assert.equal(run.mainRequests, 6);
    const outputs = outputsOf(run.log.at(-1)!.body);
    assert.equal(outputs.length, 5);
    assert.equal(outputs.filter((o) => o.includes('Success. Updated the following files:\nM calc.js')).length, 3);
    assert.match(outputs.at(-1)!, /# fail 0/);
    assert.ok(run.tokens.input > 0 && run.tokens.output > 0);
  });

  it('keeps going on the same wrong edit until it is stopped, and the stop leaves no process behind', async () => {
    const pids: number[] = [];
    const run = await runCodexAlone(sameWrongEditForever(), { codexBin, maxRequests: 20, onSpawn: (pid) => pids.push(pid) });
    assert.equal(run.stoppedBy, 'requests', `codex ended by itself (exit ${run.exitCode}) after ${run.requests} requests:\n${run.stdout}${run.stderr}`);
    assert.equal(run.timedOut, true);
    assert.equal(run.exitCode, null);
    assert.equal(run.failingAtEnd, 3);
    assert.ok(run.requests >= 20);
    // The first wrong edit applies; its old text is gone after that, so every repeat fails as a stale patch.
    const outputs = outputsOf(run.log.at(-1)!.body);
    assert.match(outputs.find((o) => o.startsWith('apply_patch verification failed')) ?? '', /Failed to find expected lines/);
    assert.equal(pids.length, 1);
    assert.equal(alive(pids[0]!), false);
  });
});
