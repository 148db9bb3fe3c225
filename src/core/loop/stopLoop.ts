// Stopping the run from inside an attempt: a decided stop thrown from deep in a helper, what an exception out of an
// attempt means, and the stop when the workspace itself cannot be recorded.
import type { IterationRecord, RunState } from '../../ports/runState';
import { isAbortError } from '../../base/abort';
import { escalate } from './bounds/termination';
import type { RunDeadline } from './bounds/deadline';
import { RetryOutlastsBudget } from './turns/retry';
import type { AnyStop, LoopContext } from './loopContext';

/** An escalation or finish decided inside an attempt, carried out by the loop. */
export class StopLoop {
  /** inPlace: stop without touching a file (the workspace cannot be recorded, so no restore can be trusted). */
  constructor(readonly stop: AnyStop, readonly inPlace = false) {}
}

/** What an exception out of an attempt means: the time budget, the person's Stop, or a bug. */
export function stopFor(err: unknown, signal: AbortSignal, deadline: RunDeadline | null): AnyStop {
  if (err instanceof RetryOutlastsBudget) return escalate('budget-time', `Ran out of time: ${err.message}`);
  if (deadline?.expired && !signal.aborted) return escalate('budget-time', 'Ran out of time: the time budget ended during an attempt; what was in flight was stopped and its edit undone.');
  if (isAbortError(err) || signal.aborted) return { outcome: 'cancelled', reason: null, text: 'Cancelled by the user.' };
  const message = err instanceof Error ? err.message : String(err);
  return { outcome: 'error', reason: null, text: `Internal error: ${message}` };
}

/**
 * The workspace could not be recorded (a file git refuses, a broken store) in the middle of an attempt: stop right
 * there, say what is on disk, and touch nothing more, since no restore could be trusted.
 */
export function unrecordableStop(ctx: LoopContext, state: RunState, record: IterationRecord | null, err: Error, agent: boolean): StopLoop {
  let onDisk = '';
  if (record && !state.iterations.includes(record)) {
    onDisk = record.files.length
      ? ` The edit of attempt ${record.n} (${record.files.slice(0, 3).join(', ')}${record.files.length > 3 ? ', …' : ''}) is still on disk;`
      : agent ? ` What the agent changed in attempt ${record.n} is still on disk;` : '';
    record.note = `Greenloop could not record the workspace: ${err.message}`;
    record.durationMs = ctx.deps.clock.now() - record.startedAt;
    state.iterations.push(record);
  }
  state.inFlight = undefined;
  const text = `Greenloop could not record the workspace: ${err.message}${onDisk} nothing more was changed.`;
  return new StopLoop({ outcome: 'escalated', reason: agent ? 'actor-error' : 'user-edit', text }, true);
}

/** The person's Stop, noticed between two steps. */
export function cancelled(): Error {
  const err = new Error('Cancelled.');
  err.name = 'AbortError';
  return err;
}
