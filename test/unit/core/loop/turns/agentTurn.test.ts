// An agent's turn in-process: a scripted agent that edits the workspace itself (a port), with the real verifier,
// snapshot store and git. What the agent is told after an attempt that ran past its own time limit.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { LoopEngine } from '../../../../../src/core/loop/engine';
import { ActorError, type Actor, type ActorRequest, type ActorResponse } from '../../../../../src/ports/actor';
import { systemClock } from '../../../../../src/base/systemClock';
import { DEFAULT_LOOP_CONFIG } from '../../../../../src/session/loopDefaults';
import { CommandVerifier } from '../../../../../src/verify/commandVerifier';
import { openSnapshotStore } from '../../../../../src/snapshot/gitSnapshotStore';
import { createRedactor } from '../../../../../src/base/redact';
import { tempDir, tempProject } from '../../../support/cli';

type AgentStep = (req: ActorRequest) => void;

/** Edits the workspace the way an agent CLI does; a step may throw (an agent stopped at its own limit). */
class ScriptedAgent implements Actor {
  readonly label = 'scripted agent';
  readonly editsWorkspace = true;
  readonly prompts: string[] = [];
  constructor(private readonly steps: AgentStep[]) {}
  async propose(req: ActorRequest): Promise<ActorResponse> {
    this.prompts.push(req.prompt);
    const step = this.steps.shift();
    if (!step) throw new Error('script exhausted');
    step(req);
    return { kind: 'workspace-edited', transcript: '', usage: { prompt: 10, completion: 5 } };
  }
}

describe('agent turn (in-process, real verifier and snapshots)', function () {
  this.timeout(60_000);
  let project: string;
  let stateDir: string;

  beforeEach(() => {
    project = tempProject('calc');
    stateDir = tempDir('agent-turn-state');
  });
  afterEach(() => {
    fs.rmSync(project, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  it('after an attempt that ran past the agent time limit, the next prompt asks for a smaller change that finishes in time', async () => {
    const calc = path.join(project, 'src', 'calc.js');
    const limit = 'The agent ran longer than its 5 s limit (--agent-timeout-s) and was stopped; its unfinished changes were undone.';
    const agent = new ScriptedAgent([
      () => {
        // Half-done work, then stopped at its limit: Greenloop undoes it and goes on.
        fs.appendFileSync(calc, '// half done\n');
        throw new ActorError(limit, 'transient', undefined, 'timeout');
      },
      () => fs.writeFileSync(calc, fs.readFileSync(calc, 'utf8').replace('return a - b;', 'return a + b;').replace('function mul(a, b) {\n  return a + b;', 'function mul(a, b) {\n  return a * b;')),
    ]);
    const config = { ...DEFAULT_LOOP_CONFIG };
    const snapshots = await openSnapshotStore({ workspace: project, stateDir, excludes: config.snapshotExcludes });
    const verifier = new CommandVerifier({ cwd: project, testCommand: 'node --test test/', tsc: 'off', timeoutMs: config.verifyTimeoutS * 1000 });
    const engine = new LoopEngine({ cwd: project, actor: agent, verifier, snapshots, clock: systemClock, config, redactor: createRedactor([]) });
    const state = await engine.run(new AbortController().signal);

    assert.strictEqual(state.outcome, 'green', state.reasonText);
    assert.strictEqual(state.iterations[0]!.verdict, 'invalid-proposal');
    assert.strictEqual(state.iterations[0]!.note, limit);
    assert.doesNotMatch(fs.readFileSync(calc, 'utf8'), /half done/, 'the timed-out attempt is undone');
    assert.strictEqual(agent.prompts.length, 2);
    assert.match(agent.prompts[1]!, /Make a smaller change that finishes in time\./);
  });
});
