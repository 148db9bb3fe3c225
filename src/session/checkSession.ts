// A loop whose edits come from an agent outside Greenloop (Claude Code's Stop hook, an MCP client, Copilot through a
// VS Code tool): each check snapshots the workspace, runs the verifier and judges what changed since the last check
// like a loop attempt — kept or rolled back — and the same guards (green, stagnation, cycle, budgets) decide
// whether the agent may go on. The session's state is kept on disk between checks, so every check may come from a
// new process (a hook runs once per event).
import { createHash } from 'node:crypto';
import { LoopEngine } from '../core/loop/engine';
import { RunStore } from '../store/runStore';
import { JsonlHistoryStore } from '../store/historyStore';
import { toHistoryRecord } from '../core/run/historyRecord';
import { ExternalEdits } from './externalEdits';
import { checkAnswer, type CheckAnswer } from './checkAnswer';
import { journaledRestore } from '../core/loop/states/rollback';
import type { LoopConfig } from '../shared/config';
import type { Clock } from '../ports/clock';
import type { SnapshotStore } from '../ports/snapshots';
import type { Verifier } from '../ports/verifier';
import type { WriteJournal } from '../ports/journal';
import type { Redactor } from '../base/redact';
import type { RunState } from '../ports/runState';
import type { LoopEvent } from '../core/loop/events';
import { systemClock } from '../base/systemClock';
import { ensureUsableStateDir } from '../base/stateDir';
import { openWorkspace } from './openWorkspace';
import { protectedConfig } from './protectedGlobs';
import { RunNotStarted } from './runNotStarted';

/** The snapshot store and journal of the workspace, opened for one check (one writer per folder at a time). */
export interface OpenedStore {
  snapshots: SnapshotStore;
  journal: WriteJournal & { release(): Promise<void> };
}

export interface CheckSessionDeps {
  cwd: string;
  stateDir: string;
  config: LoopConfig;
  verifier: Verifier;
  redactor: Redactor;
  clock: Clock;
  /** Who checks, for the history ("claude-code", "mcp:client-name"). */
  client: string;
  /** Hears the engine's events of each check (a host names its test runs by them). */
  onEvent?: (event: LoopEvent) => void;
  open(runId: string): Promise<OpenedStore>;
}

/** A check session as a host asks for it: the settings as read, before the session adds its protection. */
export interface CheckRequest {
  /** The client's own session id. */
  key: string;
  /** Who checks, for the history. */
  client: string;
  cwd: string;
  stateDir: string;
  verifier: Verifier;
  /** The verifier runs tsc: tsconfig*.json joins the protected globs. */
  typeChecks: boolean;
  config: LoopConfig;
  redactor: Redactor;
  clock?: Clock;
  onEvent?: (event: LoopEvent) => void;
  /** The snapshot store's warnings. */
  onWarning?(message: string): void;
  /** What was finished after a run that died here, in one sentence. */
  onRecovered?(sentence: string): void;
}

/**
 * Opens a check session; the snapshot store and journal are then taken for each check. Throws RunNotStarted
 * ('state-dir') when the state folder is unusable; a check throws RunNotStarted ('workspace') when the folder cannot
 * be taken (no git, another run on it).
 */
export async function openCheckSession(req: CheckRequest): Promise<CheckSession> {
  await ensureUsableStateDir(req.stateDir).catch((err: Error) => {
    throw new RunNotStarted(err.message, 'state-dir', { cause: err });
  });
  // The agent's tokens are not Greenloop's to count; attempts, time and patience bound the session.
  const config = { ...protectedConfig(req.config, req.typeChecks), maxTokens: 0 };
  const { cwd, stateDir } = req;
  return new CheckSession(req.key, {
    cwd, stateDir, config, verifier: req.verifier, redactor: req.redactor, clock: req.clock ?? systemClock, client: req.client, onEvent: req.onEvent,
    open: async (runId) => {
      const opened = await openWorkspace({ workspace: cwd, stateDir, excludes: config.snapshotExcludes, runId, onWarning: req.onWarning }).catch((err: Error) => {
        throw new RunNotStarted(err.message, 'workspace', { cause: err });
      });
      if (opened.recovered) req.onRecovered?.(opened.recovered.sentence);
      return { snapshots: opened.snapshots, journal: opened.journal };
    },
  });
}

export class CheckSession {
  readonly runId: string;
  private readonly runs: RunStore;

  /** `key`: the client's own session id; the same key finds the same loop state in a later process. */
  constructor(readonly key: string, private readonly deps: CheckSessionDeps) {
    this.runId = `session-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
    this.runs = new RunStore(deps.stateDir, deps.cwd, deps.redactor);
  }

  /** The saved state, or null before the first check. */
  async state(): Promise<RunState | null> {
    try {
      return await this.runs.load(this.runId);
    } catch {
      return null;
    }
  }

  /**
   * One check. The first records the baseline; later ones judge what changed since the last. Once the session has
   * stopped, a check runs nothing and answers the stop again (`restart` begins a new session from the workspace as it is).
   */
  async check(signal: AbortSignal, opts: { restart?: boolean } = {}): Promise<CheckAnswer> {
    let state = opts.restart ? null : await this.state();
    if (state && state.outcome !== 'running') return checkAnswer(this.key, state);
    state = await this.withEngine(state, async (engine) => (state ? engine.step(state, signal) : engine.baseline(signal)));
    await this.save(state);
    return checkAnswer(this.key, state);
  }

  /** Puts the files the session's checks saw change back as they were in the best (or the first) state. */
  async rollback(to: 'best' | 'baseline', signal: AbortSignal): Promise<{ restored: string[]; answer: CheckAnswer }> {
    const state = await this.state();
    if (!state) throw new Error('This session has no check yet: call verify first, then roll back to what it recorded.');
    const ref = to === 'best' ? state.best : state.baseline;
    const opened = await this.deps.open(this.runId);
    try {
      const changed = await opened.snapshots.changedSince(ref.snapshot);
      if (signal.aborted) throw new Error('Cancelled.');
      // Asked for explicitly: everything that differs goes back, also what changed after the last check.
      await journaledRestore({ cwd: this.deps.cwd, snapshots: opened.snapshots, journal: opened.journal }, state, ref.snapshot, changed);
      state.current = { snapshot: ref.snapshot, tree: ref.tree, witness: ref.witness };
      state.warnings.push(`Rolled back to the ${to} state on request (${changed.length} file${changed.length === 1 ? '' : 's'}).`);
      await this.save(state);
      return { restored: changed, answer: checkAnswer(this.key, state) };
    } finally {
      await opened.journal.release();
    }
  }

  private async withEngine(saved: RunState | null, use: (engine: LoopEngine) => Promise<RunState>): Promise<RunState> {
    const { deps } = this;
    const opened = await deps.open(this.runId);
    try {
      // Each check may be a new process (a hook runs once per stop): the trees the session saved need no git to find.
      if (saved) opened.snapshots.remember?.([saved.baseline, saved.floor, saved.best, saved.current].filter(Boolean).map((r) => ({ id: r.snapshot, tree: r.tree })));
      const engine = new LoopEngine({
        cwd: deps.cwd, actor: new ExternalEdits(deps.client), verifier: deps.verifier, snapshots: opened.snapshots, journal: opened.journal,
        clock: deps.clock, config: deps.config, redactor: deps.redactor, runId: this.runId, ignoreHistory: true,
      });
      if (deps.onEvent) engine.events.on(deps.onEvent);
      return await use(engine);
    } finally {
      await opened.journal.release();
    }
  }

  private async save(state: RunState): Promise<void> {
    await this.runs.save(state);
    // A finished session goes to the history like any run, so the person sees what the agent's checks did.
    if (state.outcome !== 'running') await JsonlHistoryStore.forWorkspace(this.deps.stateDir, this.deps.cwd, this.deps.redactor).append(toHistoryRecord(state));
  }
}
