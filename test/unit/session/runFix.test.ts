// The one assembly of a fix run (session/runFix.ts), in-process: a scripted actor (a port), but the real verifier,
// snapshot store, journal, run store and history on a real git folder. One test per point where the five copies it
// replaced disagreed (plan §4.6), and one per way a run can fail to start.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openFixRun, type FixRequest } from '../../../src/session/runFix';
import { openCheckSession } from '../../../src/session/checkSession';
import { RunNotStarted } from '../../../src/session/runNotStarted';
import { protectedConfig } from '../../../src/session/protectedGlobs';
import type { Actor, ActorRequest, ActorResponse } from '../../../src/ports/actor';
import { TYPE_CHECK_PROTECTED_GLOBS } from '../../../src/shared/config';
import { DEFAULT_LOOP_CONFIG } from '../../../src/session/loopDefaults';
import type { LoopConfig } from '../../../src/shared/config';
import { CommandVerifier } from '../../../src/verify/commandVerifier';
import { createRedactor } from '../../../src/base/redact';
import { RunFiles } from '../../../src/store/runFiles';
import { historyKey } from '../../../src/store/historyStore';
import { journalFileFor } from '../../../src/store/runJournal';
import { tempDir, tempProject } from '../support/cli';

const block = (search: string, replace: string) => `src/calc.js\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`;
const COMMENT = (t: string) => block("'use strict';", `'use strict';\n// ${t}`);

/** Proposes a harmless comment each time (no progress: the loop stagnates); counts its calls and its closing. */
class CommentingActor implements Actor {
  readonly label = 'scripted';
  calls = 0;
  disposed = 0;
  constructor(private readonly closeFails = false) {}
  async propose(_req: ActorRequest): Promise<ActorResponse> {
    this.calls++;
    return { kind: 'text', text: COMMENT(`try ${this.calls}`), usage: { prompt: 10, completion: 5 } };
  }
  async dispose(): Promise<void> {
    this.disposed++;
    if (this.closeFails) throw new Error('the gateway port is stuck');
  }
}

describe('session: one place assembles a fix run', function () {
  this.timeout(120_000);
  let project: string;
  let stateDir: string;

  beforeEach(() => {
    project = fs.realpathSync(tempProject('calc'));
    stateDir = fs.realpathSync(tempDir('session-state'));
  });
  afterEach(() => {
    fs.rmSync(project, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  function request(actor: Actor, over: Partial<FixRequest> & { loop?: Partial<LoopConfig> } = {}): FixRequest & { warnings: string[] } {
    const config = { ...DEFAULT_LOOP_CONFIG, ...over.loop };
    const warnings: string[] = [];
    const verifier = new CommandVerifier({ cwd: project, testCommand: 'node --test test/', tsc: 'off', timeoutMs: 60_000 });
    return { cwd: project, stateDir, actor, verifier, typeChecks: false, config, redactor: createRedactor([]), onWarning: (m) => warnings.push(m), warnings, ...over };
  }

  /** The folder is free again: another run can take it. */
  async function folderIsFree(): Promise<void> {
    const other = await openFixRun(request(new CommentingActor()));
    await other.abandon();
  }

  it('a run resumed once counts once toward the cross-run limit', async () => {
    const loop = { crossRunLimit: 2, patience: 1, maxIterations: 3 };
    const first = await openFixRun(request(new CommentingActor(), { loop }));
    const escalated = (await first.run(new AbortController().signal)).state;
    assert.equal(escalated.outcome, 'escalated');

    // The person resumes it with a hint; it escalates again: its history now has two lines, one run.
    const again = await openFixRun(request(new CommentingActor(), { loop, resume: { from: escalated, grant: { hint: 'look at add', iterations: 1 } } }));
    const resumed = (await again.run(new AbortController().signal)).state;
    assert.equal(resumed.runId, escalated.runId);
    assert.equal(resumed.outcome, 'escalated');
    const lines = fs.readFileSync(path.join(stateDir, 'history', `${historyKey(project)}.jsonl`), 'utf8').trim().split('\n');
    assert.equal(lines.length, 2);

    // One escalated run is not two: the next run is warned, not refused, and asks the model.
    const actor = new CommentingActor();
    const next = await openFixRun(request(actor, { loop }));
    const state = (await next.run(new AbortController().signal)).state;
    assert.ok(actor.calls > 0, `the run was refused: ${state.reasonText}`);
    assert.match(state.warnings.join(' '), /The last 1 run on these same 2 failing tests/);
  });

  it('a gateway that fails to close is a warning, and the run\'s report is still written', async () => {
    const actor = new CommentingActor(true);
    const req = request(actor, { loop: { maxIterations: 1 } });
    const fixRun = await openFixRun(req);
    const { state, saveError } = await fixRun.run(new AbortController().signal);
    assert.equal(saveError, undefined);
    assert.equal(actor.disposed, 1);
    assert.ok(req.warnings.includes('Could not close the agent\'s model gateway: the gateway port is stuck'), req.warnings.join('\n'));
    const files = new RunFiles(stateDir, project, createRedactor([]));
    assert.equal((await files.runs.load(state.runId)).outcome, state.outcome);
    assert.deepEqual((await files.list()).records.map((r) => r.runId), [state.runId]);
    await folderIsFree();
  });

  it('checks the state folder before it opens anything, for a fix run and a check session alike', async () => {
    const file = path.join(stateDir, 'not-a-folder');
    fs.writeFileSync(file, 'x');
    const actor = new CommentingActor();
    await assert.rejects(openFixRun(request(actor, { stateDir: file })), (err: unknown) => err instanceof RunNotStarted && err.why === 'state-dir');
    assert.equal(actor.disposed, 1, 'the actor is closed when the run cannot start');
    const verifier = new CommandVerifier({ cwd: project, testCommand: 'node --test test/', tsc: 'off', timeoutMs: 60_000 });
    await assert.rejects(
      openCheckSession({ key: 'k', client: 'test', cwd: project, stateDir: file, verifier, typeChecks: false, config: DEFAULT_LOOP_CONFIG, redactor: createRedactor([]) }),
      (err: unknown) => err instanceof RunNotStarted && err.why === 'state-dir',
    );
  });

  it('refuses to resume a run whose snapshots are gone, and releases the folder', async () => {
    const first = await openFixRun(request(new CommentingActor(), { loop: { maxIterations: 1 } }));
    const { state } = await first.run(new AbortController().signal);
    const gone = { ...state, best: { ...state.best, snapshot: 'f'.repeat(40) } };
    const actor = new CommentingActor();
    await assert.rejects(
      openFixRun(request(actor, { resume: { from: gone, grant: { hint: 'h', iterations: 1 } } })),
      (err: unknown) => err instanceof RunNotStarted && err.why === 'resume' && /cannot be resumed; start a new run instead/.test(err.message),
    );
    assert.equal(actor.disposed, 1);
    await folderIsFree();
  });

  it('says what it finished after a run that died here, and passes on the history\'s warnings', async () => {
    fs.mkdirSync(path.join(stateDir, 'history'), { recursive: true });
    fs.writeFileSync(path.join(stateDir, 'history', `${historyKey(project)}.jsonl`), '{not json\n');
    // A run killed before it wrote anything: its journal is left, its owner gone.
    const journal = journalFileFor(stateDir, project);
    fs.mkdirSync(path.dirname(journal), { recursive: true });
    fs.writeFileSync(journal, JSON.stringify({ version: 1, runId: 'dead-run', workspace: project, startedAt: new Date().toISOString(), intent: null, owner: { pid: 2 ** 22 + 7, startTime: null, host: require('node:os').hostname() } }));
    const recovered: string[] = [];
    const req = request(new CommentingActor(), { onRecovered: (s) => recovered.push(s) });
    const fixRun = await openFixRun(req);
    await fixRun.abandon();
    assert.match(req.warnings.join('\n'), /Skipped 1 unreadable line/);
    assert.equal(recovered.length, 1);
    assert.match(recovered[0], /dead-run/);
  });

  it('keeps the run\'s end when it cannot be saved, and still releases the folder', async () => {
    fs.mkdirSync(path.join(stateDir, 'runs'), { recursive: true });
    fs.writeFileSync(path.join(stateDir, 'runs', historyKey(project)), 'a file where the runs folder goes');
    const fixRun = await openFixRun(request(new CommentingActor(), { loop: { maxIterations: 1 } }));
    const { state, saveError } = await fixRun.run(new AbortController().signal);
    assert.notEqual(state.outcome, 'running');
    assert.ok(saveError instanceof Error);
    await folderIsFree();
  });

  it('a focus on no failing test, and a stop before the first test run, are runs that did not start', async () => {
    const focus = await openFixRun(request(new CommentingActor(), { loop: { focus: ['no such test'] } }));
    await assert.rejects(focus.run(new AbortController().signal), (err: unknown) => err instanceof RunNotStarted && err.why === 'focus');
    const controller = new AbortController();
    controller.abort();
    const cancelled = await openFixRun(request(new CommentingActor()));
    await assert.rejects(cancelled.run(controller.signal), (err: unknown) => err instanceof RunNotStarted && err.why === 'cancelled');
    await folderIsFree();
  });

  it('protects tsconfig once when the verifier type-checks, and only then', () => {
    const once = protectedConfig(DEFAULT_LOOP_CONFIG, true);
    for (const g of TYPE_CHECK_PROTECTED_GLOBS) assert.ok(once.protectedGlobs.includes(g));
    assert.deepEqual(protectedConfig(once, true).protectedGlobs, once.protectedGlobs, 'merged twice is merged once');
    assert.equal(protectedConfig(DEFAULT_LOOP_CONFIG, false), DEFAULT_LOOP_CONFIG);
  });
});
