// The real Claude Code CLI driven by the scripted Anthropic-protocol model: proof that the calc3 scenarios do on
// Claude what their names say (a model that fixes everything ends the run green; a stuck model keeps the agent
// going until someone stops it), through Claude's own Read/Edit/Bash tools.
import * as assert from 'node:assert/strict';
import { runClaudeAlone } from '../../../bench/agents/claudeAlone';
import { oneShotFix, sameWrongEditForever } from '../../support/agentScenarios';
import { installClaude } from '../../support/claudeAgent';
import { alive } from '../support/processes';
import { REAL_AGENT_TEST_MS } from '../../support/agentTimeouts';

describe('Claude Code alone, driven by a scripted Anthropic model', function () {
  // Every verdict here is decided by counts: the agent exits by itself, or the scripted model stops it at its N-th
  // request. The clocks only catch a hang — the runner's idle guard (no model request for 3 minutes) and this limit
  // (see agentTimeouts.ts) — so a slow machine never changes a result.
  this.timeout(REAL_AGENT_TEST_MS);
  let claudeBin = '';

  before(async function () {
    try {
      claudeBin = await installClaude();
    } catch (err) {
      // A real agent that cannot be installed fails the suite with its name; it is never skipped.
      throw new Error(`The agent CLI could not be installed: ${(err as Error).message}`);
    }
  });

  it('fixes calc3 and exits 0 when the model fixes all three bugs', async () => {
    const run = await runClaudeAlone(oneShotFix(), { claudeBin, maxRequests: 30 });
    assert.equal(run.timedOut, false, `claude did not finish by itself:\n${run.stderr}`);
    assert.equal(run.exitCode, 0, run.stderr);
    assert.deepEqual(run.scenarioErrors, []);
    assert.equal(run.failingAtEnd, 0);
    assert.equal(run.stdout.trim(), 'Fixed.');
    // Read, three edits, npm test, final text: every step went through Claude's own tools, and each succeeded.
    assert.equal(run.mainRequests, 6);
    const results = run.log.at(-1)!.body.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []))
      .filter((b: { type?: string }) => b.type === 'tool_result');
    assert.equal(results.length, 5);
    assert.deepEqual(results.filter((r: { is_error?: boolean }) => r.is_error), []);
    assert.match(JSON.stringify(results.at(-1).content), /# fail 0/);
    assert.ok(run.tokens.input > 0 && run.tokens.output > 0);
  });

  it('keeps going on the same wrong edit until it is stopped, and the stop leaves no process behind', async () => {
    const pids: number[] = [];
    const run = await runClaudeAlone(sameWrongEditForever(), { claudeBin, maxRequests: 20, onSpawn: (pid) => pids.push(pid) });
    assert.equal(run.stoppedBy, 'requests', `claude ended by itself (exit ${run.exitCode}) after ${run.requests} requests:\n${run.stdout}${run.stderr}`);
    assert.equal(run.timedOut, true);
    assert.equal(run.exitCode, null);
    assert.equal(run.failingAtEnd, 3);
    assert.ok(run.requests >= 20);
    assert.equal(pids.length, 1);
    assert.equal(alive(pids[0]!), false);
  });
});
