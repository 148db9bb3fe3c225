// The test run of an attempt: a verifier that cannot run, or a test command past its own timeout, stops the run
// with the edit rolled back and the attempt in the history.
import type { VerifyOptions, Witness } from '../../../ports/verifier';
import type { IterationRecord, RunState } from '../../../ports/runState';
import { isAbortError } from '../../../base/abort';
import { runSignal, type LoopContext } from '../loopContext';
import { recordVerifyFailure } from '../record';
import { rollBackTo } from '../states/moveTo';
import { noteTestRun } from '../testRuns';
import { cancelled, StopLoop } from '../stopLoop';

/** A test run outside an attempt (a resumed run's start): the verifier's failure stops the run, nothing to undo. */
export async function verifyOrThrow(ctx: LoopContext, signal: AbortSignal): Promise<Witness> {
  try {
    return await ctx.deps.verifier.verify(signal);
  } catch (err) {
    if (isAbortError(err) || signal.aborted) throw err;
    throw new StopLoop({ outcome: 'escalated', reason: 'verify-error', text: `The verifier could not run: ${(err as Error).message}` });
  }
}

export async function verifyOrStop(ctx: LoopContext, state: RunState, record: IterationRecord, opts?: VerifyOptions): Promise<Witness> {
  const signal = runSignal(ctx);
  let witness: Witness;
  try {
    witness = await ctx.deps.verifier.verify(signal, opts);
    noteTestRun(state, record, witness);
  } catch (err) {
    if (isAbortError(err) || signal.aborted) throw err;
    record.note = `The verifier could not run: ${(err as Error).message}`;
    await rollBackTo(ctx.deps, state, state.best);
    record.rolledBack = true;
    recordVerifyFailure(ctx, state, record);
    throw new StopLoop({ outcome: 'escalated', reason: 'verify-error', text: record.note });
  }
  if (signal.aborted) throw cancelled();
  if (witness.timedOut) {
    record.note = `The test command did not finish within ${ctx.deps.config.verifyTimeoutS} s after this edit; it was rolled back.`;
    await rollBackTo(ctx.deps, state, state.best);
    record.rolledBack = true;
    recordVerifyFailure(ctx, state, record);
    throw new StopLoop({ outcome: 'escalated', reason: 'verify-error', text: record.note });
  }
  return witness;
}
