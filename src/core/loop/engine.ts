// The bounded loop: propose → snapshot → apply → verify, until code (never the model) says stop. The engine starts,
// resumes and ends runs; each attempt is the pipeline of runAttempt.ts, asked through the turn chosen once here.
import { StateDirLost, WorkspaceNotRecordable } from '../../ports/snapshots';
import type { IterationRecord, RunState } from '../../ports/runState';
import { makePathPolicy, type PathPolicy } from '../edits/pathPolicy';
import { upgradeSavedState } from '../run/runStateFactory';
import type { Grant } from './bounds/budget';
import { RunDeadline } from './bounds/deadline';
import { checkBudgets } from './bounds/termination';
import { AttemptInterrupted, type Turn } from './attempt';
import { LoopEmitter } from './events';
import type { EngineDeps, LoopContext } from './loopContext';
import { reopen, startFromPersonsWorkspace } from './resumeRun';
import { RunEnd } from './runEnd';
import { runAttempt } from './runAttempt';
import { runAutofix } from './autofix';
import { startRun } from './startRun';
import { collectCoverage } from './coverageRun';
import { KnownStates } from './states/knownStates';
import { LastApplyMemory } from './states/lastApply';
import { StopLoop, stopFor, unrecordableStop } from './stopLoop';
import { AgentTurn } from './turns/agentTurn';
import { journalBetweenAttempts } from './states/betweenAttempts';
import { ModelTurn } from './turns/modelTurn';

export type { Grant } from './bounds/budget';
export type { EngineDeps } from './loopContext';

export class LoopEngine implements LoopContext {
  readonly events = new LoopEmitter();
  readonly lastApply = new LastApplyMemory();
  deadline: RunDeadline | null = null;
  readonly policy: PathPolicy;
  readonly known: KnownStates;
  private readonly end: RunEnd;
  /** A model answers with text, an agent edits the workspace itself: chosen once, never asked again. */
  private readonly turn: Turn;

  constructor(readonly deps: EngineDeps) {
    this.end = new RunEnd(this);
    this.policy = makePathPolicy({
      root: deps.cwd,
      protectedGlobs: deps.config.protectedGlobs,
      allowTestEdits: deps.config.allowTestEdits,
      excludes: deps.config.snapshotExcludes,
    });
    this.known = new KnownStates(deps.snapshots);
    this.turn = deps.actor.editsWorkspace ? new AgentTurn(deps.actor.external === true) : new ModelTurn();
  }

  /** Runs a new loop from the workspace as it is now. Always resolves with the whole state. */
  async run(signal: AbortSignal): Promise<RunState> {
    const now = this.deps.clock.now();
    return this.within(signal, now, this.deps.config.maxMinutes, 0, async (deadline) => {
      const { state, ready } = await startRun(this, this.end, signal, now, deadline);
      if (ready) await collectCoverage(this, state);
      return ready ? this.loop(state, signal, true) : state;
    });
  }

  /**
   * Only the first test run of a loop driven from outside (`step`): the state to keep between checks, still
   * running unless the workspace is green or cannot be verified.
   */
  async baseline(signal: AbortSignal): Promise<RunState> {
    const now = this.deps.clock.now();
    return this.within(signal, now, this.deps.config.maxMinutes, 0, async (deadline) => (await startRun(this, this.end, signal, now, deadline)).state);
  }

  /**
   * One attempt of a loop whose edits come from outside (an agent that asks Greenloop to check its work): what
   * changed since the last check is judged like any attempt — kept, or rolled back — and the same guards decide
   * whether the loop goes on. Resolves with the state; `outcome` is still `running` when it may go on.
   */
  async step(state: RunState, signal: AbortSignal): Promise<RunState> {
    upgradeSavedState(state);
    return this.within(signal, state.startedAt, state.limits.maxMinutes, state.elapsedBeforeMs, async () => {
      try {
        const before = checkBudgets(state, this.deps.clock.now());
        if (before) return await this.end.finish(state, before);
        const stop = await runAttempt(this, state, this.turn);
        await this.deps.journal?.settled();
        return stop ? await this.end.finish(state, stop) : state;
      } catch (err) {
        return this.stopped(state, err, signal);
      }
    });
  }

  /** Continues an escalated or cancelled run with a person's hint and an explicit extra budget. */
  async resume(state: RunState, grant: Grant, signal: AbortSignal): Promise<RunState> {
    upgradeSavedState(state);
    const now = this.deps.clock.now();
    reopen(state, grant, now);
    return this.within(signal, now, state.limits.maxMinutes, state.elapsedBeforeMs, async () => {
      try {
        await startFromPersonsWorkspace(this, state);
      } catch (err) {
        // The person's workspace was not verified yet: stop without restoring anything over it.
        return this.end.inPlace(state, err instanceof StopLoop ? err.stop : stopFor(err, signal, this.deadline));
      }
      this.events.emit({ type: 'run-started', runId: state.runId, baselineFailing: state.baseline.witness.failing.length, baselineNotLoaded: state.baseline.witness.loadErrorFiles?.length ?? 0, baselineDiagnostics: state.baseline.witness.diagnostics.length, resumed: true, state });
      if (state.current.witness.green) return await this.end.finish(state, { outcome: 'green', reason: null, text: 'The workspace is already green.' });
      return await this.loop(state, signal);
    });
  }

  warn(state: RunState, message: string): void {
    if (!state.warnings.includes(message)) state.warnings.push(message);
    this.events.emit({ type: 'warning', message });
  }

  /** `fresh`: a new run, whose project's own fixers go first (attempt 0); a resumed run goes straight to the model. */
  private async loop(state: RunState, signal: AbortSignal, fresh = false): Promise<RunState> {
    try {
      if (fresh) {
        const before = checkBudgets(state, this.deps.clock.now());
        if (before) return await this.end.finish(state, before);
        const stop = await runAutofix(this, state);
        await journalBetweenAttempts(this.deps, state);
        if (stop) return await this.end.finish(state, stop);
      }
      for (;;) {
        const before = checkBudgets(state, this.deps.clock.now());
        if (before) return await this.end.finish(state, before);
        const stop = await runAttempt(this, state, this.turn);
        // The attempt is kept or undone: nothing is being written. What the loop kept beyond the best state stays in
        // the journal, so a kill before the next attempt does not leave it to the person.
        await journalBetweenAttempts(this.deps, state);
        if (stop) return await this.end.finish(state, stop);
      }
    } catch (err) {
      return this.stopped(state, err, signal);
    }
  }

  /** How the loop ends when an attempt threw: a decided stop, the state folder gone, the clock, the person, a bug. */
  private async stopped(state: RunState, thrown: unknown, signal: AbortSignal): Promise<RunState> {
    const err = thrown instanceof AttemptInterrupted ? thrown.thrown : thrown;
    // The attempt under way, until it is recorded: what a stop in the middle of it must report.
    const record: IterationRecord | null = thrown instanceof AttemptInterrupted ? thrown.attempt.record : null;
    if (err instanceof StateDirLost) return await this.end.afterStateDirLost(state, err, record);
    const stop = err instanceof WorkspaceNotRecordable ? unrecordableStop(this, state, record, err, this.turn.kind === 'agent') : err;
    if (stop instanceof StopLoop) return stop.inPlace ? this.end.inPlace(state, stop.stop) : this.end.finish(state, stop.stop);
    return this.end.finish(state, stopFor(err, signal, this.deadline));
  }

  /** Runs `body` under the run's deadline (the time budget and the person's Stop), disposed however it ends. */
  private async within<T>(signal: AbortSignal, now: number, maxMinutes: number, elapsedBeforeMs: number, body: (deadline: RunDeadline) => Promise<T>): Promise<T> {
    const at = maxMinutes > 0 ? now + maxMinutes * 60_000 - elapsedBeforeMs : null;
    const deadline = this.deadline = new RunDeadline(this.deps.clock, signal, at);
    try {
      return await body(deadline);
    } finally {
      this.deadline?.dispose();
      this.deadline = null;
    }
  }
}
