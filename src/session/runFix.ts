// The one assembly of a bounded fix run, for every host (`greenloop fix`, the MCP server's fix_until_green, VS Code's
// "Fix until green"): check the state folder, take the folder (journal, store, recovery), watch outside the tree for
// an agent, drive the engine, then always close the actor, release the folder and save the run and its history.
// A lifecycle fix lands here once.
import * as os from 'node:os';
import { LoopEngine } from '../core/loop/engine';
import type { Grant } from '../core/loop/engine';
import type { LoopEvent } from '../core/loop/events';
import { STOPPED_BEFORE_BASELINE } from '../core/run/report';
import { toHistoryRecord } from '../core/run/historyRecord';
import { FocusNotFailingError } from '../core/judge/focus';
import { systemClock } from '../base/systemClock';
import { ensureUsableStateDir } from '../base/stateDir';
import { newRunId } from '../base/runId';
import type { Redactor } from '../base/redact';
import type { Actor } from '../ports/actor';
import type { Verifier } from '../ports/verifier';
import type { Clock } from '../ports/clock';
import type { RunState } from '../ports/runState';
import type { OutsideWatch } from '../ports/outside';
import { StateDirLost, WorkspaceNotRecordable } from '../ports/snapshots';
import { DEFAULT_LOOP_CONFIG, coverageFloorFromEnv } from './loopDefaults';
import type { LoopConfig } from '../shared/config';
import { RunFiles } from '../store/runFiles';
import type { Fixers } from '../ports/fixers';
import { childEnvironment } from '../base/secretEnv';
import type { CheckSpec } from '../verify/checkers/commandChecker';
import { ProjectFixers } from '../verify/fixers/projectFixers';
import { openOutsideWatch } from '../outside/outsideWatch';
import type { GitSnapshotStore } from '../snapshot/gitSnapshotStore';
import { createCodeReader } from '../context/codeReader';
import { importReach } from '../context/imports';
import { checkReadable, makePathPolicy } from '../core/edits/pathPolicy';
import { copiesOf } from '../snapshot/workspaceCopies';
import { openWorkspace } from './openWorkspace';
import { protectedConfig } from './protectedGlobs';
import { RunNotStarted } from './runNotStarted';

export interface FixRequest {
  /** The workspace, real path. */
  cwd: string;
  stateDir: string;
  actor: Actor;
  verifier: Verifier;
  /** The verifier runs tsc: tsconfig*.json joins the protected globs. */
  typeChecks: boolean;
  /** The verifier's checks: those whose own tool has a fixer run it as attempt 0 (unless config.autofix is off). */
  checks?: readonly CheckSpec[];
  /** What the checks' environment withholds (the run's secrets): their fixers get the same. */
  withheldEnv?: readonly string[];
  /** As the host read it; the session adds the protection. A resume runs with the saved run's own settings. */
  config: LoopConfig;
  redactor: Redactor;
  /** Default: a new id. A resume keeps the run's own. */
  runId?: string;
  /** Hosts load the run and check the grant, each with its own sentence. */
  resume?: { from: RunState; grant: Grant };
  ignoreHistory?: boolean;
  clock?: Clock;
  retry?: ConstructorParameters<typeof LoopEngine>[0]['retry'];
  /** What the engine sees of the actor and the verifier (VS Code's pause gate). */
  wrap?: { actor?(a: Actor): Actor; verifier?(v: Verifier): Verifier };
  onEvent?(e: LoopEvent): void;
  /** History and store warnings; a gateway that would not close. */
  onWarning?(message: string): void;
  /** What was finished after a run that died here, in one sentence. */
  onRecovered?(sentence: string): void;
  /** After a stop for a person's edit: true when they chose to keep it and go on (VS Code's "Continue with my edit"). */
  keepPersonsEdit?(): boolean;
}

export interface FixResult {
  state: RunState;
  /** The run ended but could not be saved (or its history line appended). */
  saveError?: Error;
}

export interface FixRun {
  readonly runId: string;
  /** Open while the run goes on (VS Code's diff views read it). */
  readonly snapshots: GitSnapshotStore;
  /** What the engine runs with. */
  readonly config: LoopConfig;
  /** Drives the loop to its end, then always: closes the actor, releases the folder, saves the run and its history. */
  run(signal: AbortSignal): Promise<FixResult>;
  /** For a host that gives up before run(): closes the actor and releases the folder. Idempotent. */
  abandon(): Promise<void>;
}

/** Opens the folder for a run; throws RunNotStarted (having closed the actor) when it cannot. */
export async function openFixRun(req: FixRequest): Promise<FixRun> {
  const warn = (m: string) => req.onWarning?.(m);
  const { actor, stateDir, cwd, resume } = req;
  try {
    await ensureUsableStateDir(stateDir);
  } catch (err) {
    await closeActor(actor, warn);
    throw new RunNotStarted((err as Error).message, 'state-dir', { cause: err });
  }
  // The hosts build the config field by field from flags and settings; the environment's coverage floor joins here.
  const config = { ...(resume ? { ...DEFAULT_LOOP_CONFIG, ...resume.from.config } : protectedConfig(req.config, req.typeChecks)), ...coverageFloorFromEnv() };
  const files = new RunFiles(stateDir, cwd, req.redactor);
  // The newest record of each run: a run resumed or rolled back counts once for the cross-run guard.
  const past = await files.list();
  past.warnings.forEach(warn);
  const runId = resume?.from.runId ?? req.runId ?? newRunId();

  let opened: Awaited<ReturnType<typeof openWorkspace>>;
  try {
    opened = await openWorkspace({ workspace: cwd, stateDir, excludes: config.snapshotExcludes, runId, onWarning: warn });
  } catch (err) {
    await closeActor(actor, warn);
    // No git, a folder that is gone, a store that cannot be created, another run on this folder: setup.
    throw new RunNotStarted((err as Error).message, 'workspace', { cause: err });
  }
  const { snapshots, journal, recovered } = opened;
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await closeActor(actor, warn);
    await journal.release();
  };
  if (recovered) req.onRecovered?.(recovered.sentence);
  if (resume && !(await snapshots.hasAll(savedSnapshots(resume.from)))) {
    await release();
    throw new RunNotStarted(`The snapshots of run ${resume.from.runId} are no longer in the store (moved aside or deleted), so it cannot be resumed; start a new run instead.`, 'resume');
  }
  // An agent's gateway tells the files its own test runs ran on apart by the state a snapshot would record.
  actor.watchWorkspace?.(() => snapshots.currentTree());
  let outside: OutsideWatch | undefined;
  if (actor.editsWorkspace && !actor.external) {
    // Opened before the first test run, so the ignored files the tests themselves write are known as theirs.
    // A failure here is no setup mistake of the person's: it goes on as it is (an internal error).
    outside = await openOutsideWatch({ workspace: cwd, stateDir, home: os.homedir(), snapshots }).catch(async (err: Error) => {
      await release();
      throw err;
    });
  }

  const run = async (signal: AbortSignal): Promise<FixResult> => {
    if (released) throw new Error(`Run ${runId} was abandoned before it started.`);
    const engine = new LoopEngine({
      fixers: projectFixers(req, config),
      cwd, actor: req.wrap?.actor?.(actor) ?? actor, verifier: req.wrap?.verifier?.(req.verifier) ?? req.verifier, snapshots, journal, outside, copies: copiesOf(snapshots, warn),
      clock: req.clock ?? systemClock, config, redactor: req.redactor, runId, pastRuns: past.records, ignoreHistory: req.ignoreHistory, retry: req.retry,
      codeReader: createCodeReader({ cwd, reach: codeReach(cwd, config, snapshots) }),
    });
    if (req.onEvent) engine.events.on((e) => req.onEvent!(e));
    let state: RunState;
    try {
      state = resume ? await engine.resume(resume.from, resume.grant, signal) : await engine.run(signal);
      // "Continue with my edit": the engine stopped rather than overwrite it; pick it up and go on.
      while (state.outcome === 'escalated' && state.reason === 'user-edit' && req.keepPersonsEdit?.() && !signal.aborted) {
        state = await engine.resume(state, { hint: '', iterations: 0 }, signal);
      }
    } catch (err) {
      throw notStartedOr(err, signal);
    } finally {
      await release();
    }
    try {
      await files.runs.save(state);
      await files.history.append(toHistoryRecord(state));
      return { state };
    } catch (err) {
      return { state, saveError: err as Error };
    }
  };
  return { runId, snapshots, config, run, abandon: release };
}

/** The project's own fixers of the run's checks (attempt 0), unless the person turned them off or there is no check. */
function projectFixers(req: FixRequest, config: LoopConfig): Fixers | undefined {
  if (config.autofix === 'off' || !req.checks?.length) return undefined;
  return new ProjectFixers(req.cwd, req.checks, childEnvironment(process.env, req.withheldEnv));
}

/** What the engine throws before it changed anything, as the setup problem it is; anything else stays as it is. */
function notStartedOr(err: unknown, signal: AbortSignal): unknown {
  const message = (err as Error)?.message ?? String(err);
  if (err instanceof WorkspaceNotRecordable) return new RunNotStarted(message, 'unrecordable', { cause: err });
  if (err instanceof FocusNotFailingError) return new RunNotStarted(message, 'focus', { cause: err });
  if (err instanceof StateDirLost) return new RunNotStarted(message, 'state-dir-lost', { cause: err });
  if (signal.aborted) return new RunNotStarted(STOPPED_BEFORE_BASELINE, 'cancelled', { cause: err });
  return err;
}

/** An agent's model gateway closes with the run; a failure to close is no reason to lose the run's end. */
async function closeActor(actor: Actor, warn: (m: string) => void): Promise<void> {
  await actor.dispose?.().catch((err: Error) => warn(`Could not close the agent's model gateway: ${err.message}`));
}

/** The snapshots a resume returns to or compares with: all must still be in the store. */
function savedSnapshots(state: RunState): string[] {
  return [...new Set([state.baseline.snapshot, (state.floor ?? state.baseline).snapshot, state.best.snapshot, state.current.snapshot])];
}

/** The files the failing tests reach through imports, read only where the run's path policy and git's ignore rules allow. */
function codeReach(cwd: string, config: LoopConfig, snapshots: Pick<GitSnapshotStore, 'unrecorded'>) {
  const policy = makePathPolicy({ root: cwd, protectedGlobs: config.protectedGlobs, allowTestEdits: config.allowTestEdits, excludes: config.snapshotExcludes });
  return importReach(cwd, { gate: (rel) => checkReadable(policy, rel), ignored: (paths) => snapshots.unrecorded(paths) });
}
