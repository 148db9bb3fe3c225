// How a new run starts: the baseline snapshot, the actor's check, the first test run, and the guards that may stop
// the run before any attempt (already green, a focus that is not failing, the same failure as earlier runs).
import { newRunId } from '../../base/runId';
import { isAbortError } from '../../base/abort';
import type { Witness } from '../../ports/verifier';
import { VerifyError } from '../../ports/verifier';
import type { RunState, StateRef } from '../../ports/runState';
import { judgedFailing } from '../judge/witnessCompare';
import { FocusNotFailingError, unknownFocus } from '../judge/focus';
import { configHash } from '../run/historyRecord';
import { baselineProblem, newRunState, summarize } from '../run/runStateFactory';
import { checkCrossRun } from './bounds/crossRunGuard';
import { escalate } from './bounds/termination';
import type { RunDeadline } from './bounds/deadline';
import { checkActorWithin } from './actorCheck';
import type { LoopContext } from './loopContext';
import type { RunEnd } from './runEnd';
import { settle } from './settle';
import { addTestTime } from './testRuns';
import { moveTo } from './states/moveTo';
import { warnEarlyStop } from './steps/judge';
import { cancelled } from './stopLoop';

/** The run as it stands after its start; `ready`: the first attempt may begin (else the run is already over). */
export interface Started {
  state: RunState;
  ready: boolean;
}

/** Starts a run from the workspace as it is now, within the deadline already started for it. */
export async function startRun(ctx: LoopContext, end: RunEnd, signal: AbortSignal, startedAt: number, deadline: RunDeadline): Promise<Started> {
  const { deps, events } = ctx;
  const ended = (state: RunState): Started => ({ state, ready: false });
  events.emit({ type: 'phase', phase: 'snapshot' });
  const baselineSnap = await deps.snapshots.snapshot('baseline');
  // A model that cannot be reached is told now, in seconds: not after the tests and every retry.
  if (deps.actor.check) events.emit({ type: 'phase', phase: 'model-check', agent: deps.actor.editsWorkspace });
  const unusableModel = await checkActorWithin(deps.actor, { deadline, cancel: signal, clock: deps.clock, maxMinutes: deps.config.maxMinutes });
  if (unusableModel) return ended(await end.unverified(startedAt, baselineSnap, unusableModel.reason, unusableModel.text, undefined, { testsRan: false }));
  let witness: Witness;
  try {
    events.emit({ type: 'phase', phase: 'baseline-tests' });
    witness = await deps.verifier.verify(deadline.signal);
  } catch (err) {
    if (deadline.expired) return ended(await end.unverified(startedAt, baselineSnap, 'budget-time', `The time budget (${deps.config.maxMinutes} min) ran out before the first test run finished; nothing was changed.`));
    if (isAbortError(err) || signal.aborted) throw err;
    const text = err instanceof VerifyError ? err.message : `The verifier failed before the loop started: ${(err as Error).message}`;
    return ended(await end.unverified(startedAt, baselineSnap, 'verify-error', text));
  }
  if (deadline.expired) return ended(await end.unverified(startedAt, baselineSnap, 'budget-time', `The time budget (${deps.config.maxMinutes} min) ran out before the first test run finished; nothing was changed.`));
  if (signal.aborted) throw cancelled();
  const unusable = baselineProblem(witness, deps.config.verifyTimeoutS);
  if (unusable) return ended(await end.unverified(startedAt, baselineSnap, 'verify-error', unusable, witness));

  const unfocused = unknownFocus(deps.config.focus, witness.failing);
  if (unfocused) throw new FocusNotFailingError(unfocused, witness.failing);

  const base: StateRef = { snapshot: baselineSnap.id, tree: baselineSnap.tree, witness: summarize(witness), iteration: 0 };
  const state = newRunState(deps, deps.runId ?? newRunId(startedAt), startedAt, base);
  addTestTime(state, witness);
  const { snap: settledBase } = await settle(ctx, state, baselineSnap);
  moveTo(state, { snapshot: settledBase.id, tree: settledBase.tree, witness: base.witness });
  state.kept.push({ identity: await ctx.known.identityOf(state, baselineSnap.id), snapshot: baselineSnap.id, iteration: 0 });
  events.emit({ type: 'run-started', runId: state.runId, baselineFailing: base.witness.failing.length, baselineNotLoaded: base.witness.loadErrorFiles?.length ?? 0, baselineDiagnostics: base.witness.diagnostics.length, resumed: false, state });
  for (const w of base.witness.warnings ?? []) ctx.warn(state, w);
  warnEarlyStop(ctx, state, base.witness);
  if (witness.green) return ended(await end.finish(state, { outcome: 'green', reason: null, text: 'Already green: nothing to fix.' }));

  const guard = checkCrossRun(deps.pastRuns ?? [], configHash(state), judgedFailing(base.witness), deps.config.crossRunLimit);
  if (guard?.blocked && !deps.ignoreHistory) {
    state.crossRun = guard.text;
    return ended(await end.finish(state, escalate('stagnation', guard.text)));
  }
  if (guard) {
    state.crossRun = guard.blocked ? `${guard.text} You chose to run anyway.` : guard.text;
    ctx.warn(state, state.crossRun);
  }
  return { state, ready: true };
}
