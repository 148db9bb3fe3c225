// How a run ends: the outcome recorded, the workspace left at the best state (or the floor, or the last kept one)
// and never worse than the floor, and — when files no snapshot records changed — the tests run once more so the
// report says what they say on disk.
import { StateDirLost, type SnapshotRef } from '../../ports/snapshots';
import type { Witness } from '../../ports/verifier';
import type { EscalationReason, FinalState, IterationRecord, RunState, StateRef, WitnessSummary } from '../../ports/runState';
import type { AnyStop, LoopContext } from './loopContext';
import { newRunState, summarize, UNVERIFIED } from '../run/runStateFactory';
import { leftAloneSentence, rollBack } from './states/rollback';
import { moveTo } from './states/moveTo';
import { addTestTime } from './testRuns';
import { newRunId } from '../../base/runId';

export class RunEnd {
  constructor(private readonly ctx: LoopContext) {}

  async finish(state: RunState, stop: AnyStop): Promise<RunState> {
    if (stop.outcome === 'green') {
      return this.record(state, stop, state.iterations.length ? 'best' : 'baseline');
    }
    // The person's edits are theirs: after a user-edit stop every file stays as it is.
    if (stop.reason === 'user-edit') return this.record(state, stop, 'last');
    return this.record(state, stop, await this.leaveWorkspace(state));
  }

  /** Stops without touching a file: the workspace is left exactly as it is. */
  inPlace(state: RunState, stop: AnyStop): RunState {
    return this.record(state, stop, 'last');
  }

  /** The baseline could not be verified: no loop, no model call, a report that says why. */
  async unverified(startedAt: number, snap: SnapshotRef, reason: EscalationReason, text: string, witness?: Witness, opts: { testsRan?: boolean } = {}): Promise<RunState> {
    const { deps, events } = this.ctx;
    // A run that could not be used (hung, ran no test, unreadable) counted nothing either: its numbers are no count.
    const summary: WitnessSummary = witness ? { ...summarize(witness), unmeasured: true } : UNVERIFIED;
    const base: StateRef = { snapshot: snap.id, tree: snap.tree, witness: summary, iteration: 0 };
    const state = newRunState(deps, deps.runId ?? newRunId(startedAt), startedAt, base);
    events.emit({ type: 'run-started', runId: state.runId, baselineFailing: summary.failing.length, baselineNotLoaded: summary.loadErrorFiles?.length ?? 0, baselineDiagnostics: summary.diagnostics.length, resumed: false, unverified: true, stoppedFor: reason, beforeTests: opts.testsRan === false, state });
    // Nothing of the loop was written yet: whatever changed since (the test run's own files, a person's) stays.
    return this.record(state, { outcome: 'escalated', reason, text }, 'baseline');
  }

  private record(state: RunState, stop: AnyStop, finalState: FinalState): RunState {
    const { events, deps } = this.ctx;
    state.outcome = stop.outcome;
    state.reason = stop.reason;
    state.reasonText = stop.text;
    state.finalState = finalState;
    if (stop.outcome === 'escalated' && stop.reason) events.emit({ type: 'escalated', reason: stop.reason, message: stop.text });
    state.finishedAt = deps.clock.now();
    events.emit({ type: 'finished', outcome: state.outcome, state });
    return state;
  }

  /** Gives up cleanly: the workspace ends at the best state (or the floor/last per setting), never worse than the floor. */
  private async leaveWorkspace(state: RunState): Promise<FinalState> {
    const target: FinalState = state.config.onGiveUp === 'restore-baseline' ? 'baseline' : state.config.onGiveUp === 'keep-last' ? 'last' : 'best';
    // "baseline" after a resume is the floor: the workspace as the person left it, their edits included.
    const ref = target === 'baseline' ? state.floor : target === 'best' ? state.best : null;
    let restored = true;
    let leftAlone: string[] = [];
    try {
      // "last" is whatever the loop last kept; a half-applied or rolled-back edit is never left behind. Only the
      // loop's own writes are returned: a file a person changed meanwhile stays as they left it.
      const to = ref ?? { ...state.current, iteration: state.iterations.length };
      leftAlone = await rollBack(this.ctx.deps, state, to);
      // At the state the run ends in: nothing of the loop's is left to undo after a kill from here on.
      const journal = this.ctx.deps.journal;
      await (journal?.betweenAttempts ? journal.betweenAttempts(null) : journal?.settled());
      moveTo(state, to);
    } catch (err) {
      const to = ref ?? state.current;
      // With the store gone the last edit can still be undone from memory when that is the whole way back.
      if (err instanceof StateDirLost && this.ctx.lastApply.reaches(to.snapshot)) {
        const undone = await this.ctx.lastApply.undo(this.ctx.deps.cwd);
        leftAlone = undone.leftAlone;
        moveTo(state, to);
        this.ctx.warn(state, `${err.message}; the last edit was undone from memory instead (${undone.restored.join(', ') || 'nothing left to undo'}).`);
      } else {
        restored = false;
        this.ctx.warn(state, `Could not restore the ${target} state: ${(err as Error).message}`);
      }
    }
    if (leftAlone.length) this.ctx.warn(state, leftAloneSentence(leftAlone));
    // A state judged by its failing tests alone says nothing of the rest of the suite: the report must.
    const targetedOnly = state.current.witness.scope === 'targeted';
    const why = !restored ? 'The restore did not finish' : leftAlone.length ? 'Files changed by someone else were left as they are' : state.unrecordedChanged?.length ? 'Git-ignored files changed during the run' : targetedOnly ? 'The last state was judged by its failing tests alone' : '';
    if (why) await this.reverifyFinal(state, why);
    // A restore that did not finish left the workspace as it was: the report must not name a state it is not in.
    return restored ? target : 'last';
  }

  /**
   * The state folder was deleted under the run: no snapshot can be restored or taken. The edit in flight is undone
   * from memory when it can be (a model's edit; never over a person's change), the run stops where it is, and when
   * the workspace may not be the state its witness describes, the tests run once more so the report tells the truth.
   */
  async afterStateDirLost(state: RunState, err: StateDirLost, attempt: IterationRecord | null): Promise<RunState> {
    const { deps, lastApply } = this.ctx;
    const inFlight = attempt !== null && !state.iterations.includes(attempt);
    let text = `${err.message}; the run stopped`;
    if (inFlight && lastApply.reaches(state.current.snapshot)) {
      const undone = await lastApply.undo(deps.cwd);
      attempt.rolledBack = undone.restored.length > 0;
      attempt.note = `${err.message}; this attempt's edit was undone from memory.`;
      text += ` and attempt ${attempt.n}'s edit was undone from memory (${undone.restored.join(', ') || 'nothing was written yet'}), so the workspace is as it was before that attempt`;
      if (undone.leftAlone.length) this.ctx.warn(state, leftAloneSentence(undone.leftAlone));
    } else if (inFlight) {
      text += ` with what attempt ${attempt.n} changed still on disk`;
    }
    if (inFlight) {
      attempt.durationMs = deps.clock.now() - attempt.startedAt;
      if (!attempt.note) attempt.note = `${err.message}.`;
      state.iterations.push(attempt);
    }
    state.inFlight = undefined;
    const stop: AnyStop = { outcome: 'escalated', reason: 'user-edit', text: `${text}; start a new run to go on.` };
    if (inFlight && !attempt.rolledBack) await this.reverifyFinal(state, 'The workspace could not be restored');
    return this.record(state, stop, 'last');
  }

  /**
   * When the workspace may not be the state its witness describes (files no snapshot records changed, a restore
   * failed), run the tests once more so the report says what they say on disk — unless time or the person already
   * said stop.
   */
  private async reverifyFinal(state: RunState, why: string): Promise<void> {
    const { deadline } = this.ctx;
    if (!deadline || deadline.signal.aborted) {
      this.ctx.warn(state, `${why} and the final state could not be tested again; run the tests to see where it stands.`);
      return;
    }
    try {
      this.ctx.events.emit({ type: 'phase', phase: 'final-tests' });
      const w = await this.ctx.deps.verifier.verify(deadline.signal);
      addTestTime(state, w);
      moveTo(state, { ...state.current, witness: summarize(w) });
      this.ctx.warn(state, `${why}, so the final state was tested again: ${state.current.witness.failing.length} failing.`);
    } catch (err) {
      this.ctx.warn(state, `The final state could not be tested again: ${(err as Error).message}`);
    }
  }
}
