// The loop engine in-process: a scripted fake actor (a port), but the real verifier, snapshot store and git.
// These are the outcomes the CLI tests cannot provoke from outside: a person typing mid-run, Stop, a hang.
import * as assert from 'assert';
import { execSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { LoopEngine } from '../../../../src/core/loop/engine';
import { ActorError, type Actor, type ActorRequest, type ActorResponse } from '../../../../src/ports/actor';
import { systemClock } from '../../../../src/base/systemClock';
import { DEFAULT_LOOP_CONFIG } from '../../../../src/session/loopDefaults';
import type { LoopConfig } from '../../../../src/shared/config';
import { CommandVerifier } from '../../../../src/verify/commandVerifier';
import { openSnapshotStore } from '../../../../src/snapshot/gitSnapshotStore';
import { tempDir, tempProject, treeBytes } from '../../support/cli';
import { alive } from '../../support/processes';
import { waitUntil } from '../../support/waitUntil';
import type { LoopEvent } from '../../../../src/core/loop/events';
import type { HistoryRecord } from '../../../../src/ports/history';
import { JsonlHistoryStore, historyKey } from '../../../../src/store/historyStore';
import { toHistoryRecord, configHash } from '../../../../src/core/run/historyRecord';
import { checkCrossRun } from '../../../../src/core/loop/bounds/crossRunGuard';
import { createRedactor } from '../../../../src/base/redact';

type Step = (req: ActorRequest) => Promise<string> | string;

class ScriptedActor implements Actor {
  readonly label = 'scripted';
  readonly prompts: string[] = [];
  constructor(private readonly steps: Step[]) {}
  async propose(req: ActorRequest): Promise<ActorResponse> {
    this.prompts.push(req.prompt);
    const step = this.steps.shift();
    if (!step) throw new Error('script exhausted');
    return { kind: 'text', text: await step(req), usage: { prompt: 10, completion: 5 } };
  }
}

const block = (search: string, replace: string) => `src/calc.js\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`;
const FIX_ADD = block('  return a - b;', '  return a + b;');
const COMMENT = (t: string) => block("'use strict';", `'use strict';\n// ${t}`);

describe('loop engine (in-process, real verifier and snapshots)', function () {
  this.timeout(60_000);
  let project: string;
  let stateDir: string;

  beforeEach(() => {
    project = tempProject('calc');
    stateDir = tempDir('engine-state');
  });
  afterEach(() => {
    fs.rmSync(project, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  async function engine(actor: Actor, config: Partial<LoopConfig> = {}, testCommand = 'node --test test/', pastRuns: HistoryRecord[] = []) {
    const full = { ...DEFAULT_LOOP_CONFIG, ...config };
    const snapshots = await openSnapshotStore({ workspace: project, stateDir, excludes: full.snapshotExcludes });
    const verifier = new CommandVerifier({ cwd: project, testCommand, tsc: 'off', timeoutMs: full.verifyTimeoutS * 1000 });
    const e = new LoopEngine({ cwd: project, actor, verifier, snapshots, clock: systemClock, config: full, redactor: createRedactor([]), pastRuns });
    const events: LoopEvent[] = [];
    e.events.on((ev) => events.push(ev));
    return { e, events };
  }

  it('stops with user-edit when a person changes a file while the model is thinking, and keeps their change', async () => {
    const calc = path.join(project, 'src', 'calc.js');
    const actor = new ScriptedActor([
      () => {
        fs.appendFileSync(calc, '// typed by a person\n');
        return FIX_ADD;
      },
    ]);
    const { e } = await engine(actor);
    const state = await e.run(new AbortController().signal);
    assert.strictEqual(state.reason, 'user-edit');
    assert.match(state.reasonText, /src\/calc\.js/);
    const text = fs.readFileSync(calc, 'utf8');
    assert.match(text, /typed by a person/);
    assert.match(text, /return a - b;/, 'the model edit must not be applied over the person\'s typing');
  });

  it('Stop during a run ends it as cancelled, at the best state, with no test process left running', async () => {
    const pidFile = path.join(stateDir, 'pids');
    const controller = new AbortController();
    // The test command records its pid and hangs after the second edit; Stop arrives once it hangs, whatever the
    // machine's speed.
    const hanging = path.join(stateDir, 'hanging');
    const cmd = `echo $$ >> "${pidFile}"; if grep -q "a + b;" src/calc.js && grep -q "// hang" src/calc.js; then touch "${hanging}"; sleep 300; fi; node --test test/`;
    const actor = new ScriptedActor([() => FIX_ADD, () => COMMENT('hang')]);
    const { e } = await engine(actor, { patience: 5 }, cmd);
    const running = e.run(controller.signal);
    await waitUntil(() => fs.existsSync(hanging), 'the test run hanging');
    const stopped = Date.now();
    controller.abort();
    const state = await running;
    assert.strictEqual(state.outcome, 'cancelled');
    // Waiting for the tests would take their 300 s sleep: a few seconds is "at once" on any machine.
    assert.ok(Date.now() - stopped < 30_000);
    assert.strictEqual(state.finalState, 'best');
    const text = fs.readFileSync(path.join(project, 'src', 'calc.js'), 'utf8');
    assert.match(text, /return a \+ b;/, 'the progress of attempt 1 is kept');
    assert.doesNotMatch(text, /\/\/ hang/, 'the unverified edit is undone');
    for (const pid of fs.readFileSync(pidFile, 'utf8').trim().split('\n').map(Number)) {
      assert.strictEqual(alive(pid), false, `test process ${pid} still running`);
    }
  });

  it('escalates with verify-error when the test command hangs past its timeout after an edit, and rolls it back', async () => {
    const cmd = 'if grep -q "// hang" src/calc.js; then sleep 60; fi; node --test test/';
    const actor = new ScriptedActor([() => COMMENT('hang')]);
    // 10 s: the unchanged tests (the baseline) surely finish in it on a busy machine; the 60 s sleep surely does not.
    const { e } = await engine(actor, { verifyTimeoutS: 10 }, cmd);
    const before = treeBytes(project);
    const state = await e.run(new AbortController().signal);
    assert.strictEqual(state.reason, 'verify-error');
    assert.match(state.reasonText, /did not finish within 10 s/);
    assert.deepStrictEqual(treeBytes(project), before);
  });

  it('leaves the baseline or the last state when on-give-up says so', async () => {
    for (const [onGiveUp, expectComment] of [['restore-baseline', false], ['keep-last', true]] as const) {
      const actor = new ScriptedActor([() => COMMENT('one'), () => COMMENT('two')]);
      const { e } = await engine(actor, { onGiveUp });
      const state = await e.run(new AbortController().signal);
      assert.strictEqual(state.reason, 'stagnation');
      assert.strictEqual(state.finalState, onGiveUp === 'keep-last' ? 'last' : 'baseline');
      const text = fs.readFileSync(path.join(project, 'src', 'calc.js'), 'utf8');
      assert.strictEqual(/\/\/ two/.test(text), expectComment, onGiveUp);
      execSync('git checkout -q -- . && git clean -qfd', { cwd: project });
    }
  });

  it('emits typed events a host can follow, in order', async () => {
    const actor = new ScriptedActor([() => FIX_ADD, () => COMMENT('x'), () => COMMENT('y')]);
    const { e, events } = await engine(actor);
    await e.run(new AbortController().signal);
    const types = events.map((ev) => (ev.type === 'phase' ? `phase:${ev.phase}` : ev.type));
    // What runs before the first result is said as it begins: a host's notification is never empty. No stack frame
    // names the code, so the failing tests and their files' passing ones run covered first (issue 40: a small suite
    // too). FIX_ADD makes a failing test pass: the failing tests run first, then the whole suite, each announced.
    assert.deepStrictEqual(types.slice(0, 11), ['phase:snapshot', 'phase:baseline-tests', 'run-started', 'phase:coverage-tests', 'coverage', 'iteration-started', 'proposal-received', 'applied', 'verifying', 'verifying', 'verified']);
    const scopes = events.flatMap((ev) => (ev.type === 'verifying' && ev.n === 1 ? [`${ev.scope}:${ev.tests ?? ''}`] : []));
    assert.deepStrictEqual(scopes, ['targeted:2', 'full:']);
    assert.strictEqual(types[types.length - 2], 'escalated');
    assert.strictEqual(types[types.length - 1], 'finished');
  });

  it('a model that cannot be used stops the run before any test run: no count is recorded, and a resume measures first', async () => {
    let reachable = false;
    const actor = new ScriptedActor([() => FIX_ADD]);
    const checked: Actor = Object.assign(actor, {
      check: async () => {
        if (!reachable) throw new ActorError('Could not connect to the model server at http://127.0.0.1:9/v1 (connection refused); check that it is running.', 'fatal', undefined, 'network');
      },
    });
    const { e, events } = await engine(checked);
    const state = await e.run(new AbortController().signal);
    assert.deepStrictEqual(events.map((ev) => (ev.type === 'phase' ? `phase:${ev.phase}` : ev.type)), ['phase:snapshot', 'phase:model-check', 'run-started', 'escalated', 'finished']);
    assert.strictEqual(state.reason, 'actor-error');
    assert.strictEqual(state.current.witness.unmeasured, true, 'the empty failing list is no count');
    assert.strictEqual(toHistoryRecord(state).unmeasured, true, 'the history says so too');

    // Retried once the model answers: the tests run before any attempt, and their count becomes the run's start.
    reachable = true;
    const again = await engine(checked, { maxIterations: 2 });
    const resumed = await again.e.resume(state, { hint: '', iterations: 1 }, new AbortController().signal);
    const types = again.events.map((ev) => (ev.type === 'phase' ? `phase:${ev.phase}` : ev.type));
    assert.deepStrictEqual(types.slice(0, 2), ['phase:resume-tests', 'run-started']);
    assert.strictEqual(resumed.baseline.witness.failing.length, 2, 'the baseline is the first real count');
    assert.strictEqual(resumed.baseline.witness.unmeasured, undefined);
    assert.strictEqual(resumed.iterations[0]?.verdict, 'progress', 'attempt 1 is judged against that count');
    assert.strictEqual(toHistoryRecord(resumed).unmeasured, undefined);
  });

  it('after 3 escalations in a row on the same failures and configuration, a 4th run stops before asking the model', async () => {
    const history = JsonlHistoryStore.forWorkspace(stateDir, project, createRedactor([]));
    for (let i = 0; i < 3; i++) {
      const actor = new ScriptedActor([() => COMMENT(`a${i}`), () => COMMENT(`b${i}`)]);
      const { e } = await engine(actor, {}, undefined, (await history.list()).records);
      const state = await e.run(new AbortController().signal);
      if (i === 2) {
        // The third run was warned, in its report and in its first prompt, that one more would be refused.
        assert.match(state.warnings.join(' '), /last 2 runs .* escalated.*One more such escalation/);
        assert.match(actor.prompts[0], /## Earlier runs on these failures/);
      }
      await history.append(toHistoryRecord(state));
    }
    fs.appendFileSync(path.join(stateDir, 'history', `${historyKey(project)}.jsonl`), '{not json\n');
    const { records, warnings } = await history.list();
    assert.strictEqual(records.length, 3);
    assert.match(warnings[0], /Skipped 1 unreadable line/);
    const hash = configHash({ actorLabel: 'scripted', config: DEFAULT_LOOP_CONFIG });
    assert.strictEqual(checkCrossRun(records, hash, ['calc > adds', 'calc > multiplies'], 3)?.blocked, true);
    assert.strictEqual(checkCrossRun(records, hash, ['calc > adds'], 3), null, 'another failing set is another problem');
    assert.strictEqual(checkCrossRun(records, 'other-config', ['calc > adds', 'calc > multiplies'], 3), null, 'another model or budget may end differently');
    assert.strictEqual(checkCrossRun(records, hash, ['calc > adds', 'calc > multiplies'], 0), null, 'a limit of 0 turns the guard off');

    const blockedActor = new ScriptedActor([() => COMMENT('c'), () => COMMENT('d')]);
    const { e } = await engine(blockedActor, {}, undefined, records);
    const state = await e.run(new AbortController().signal);
    assert.strictEqual(state.outcome, 'escalated');
    assert.strictEqual(state.reason, 'stagnation');
    assert.strictEqual(blockedActor.prompts.length, 0, 'no model call');
    assert.match(state.reasonText, /The last 3 runs on these same 2 failing tests.*escalated: .*stagnation after 2 attempts.*stopped before asking the model.*hint/);

    // The person overrides: the run goes ahead, and the warning is in its state and its first prompt.
    const overridden = new ScriptedActor([() => COMMENT('e'), () => COMMENT('f')]);
    const full = { ...DEFAULT_LOOP_CONFIG };
    const snapshots = await openSnapshotStore({ workspace: project, stateDir, excludes: full.snapshotExcludes });
    const verifier = new CommandVerifier({ cwd: project, testCommand: 'node --test test/', tsc: 'off', timeoutMs: 60_000 });
    const anyway = new LoopEngine({ cwd: project, actor: overridden, verifier, snapshots, clock: systemClock, config: full, redactor: createRedactor([]), pastRuns: records, ignoreHistory: true });
    const ran = await anyway.run(new AbortController().signal);
    assert.strictEqual(overridden.prompts.length, 2);
    assert.match(overridden.prompts[0], /You chose to run anyway/);
    assert.match(ran.warnings.join(' '), /You chose to run anyway/);
  });
});
