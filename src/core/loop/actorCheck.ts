// The actor's check before the first test run (a model list, a model still offered), bounded twice — by the run's
// deadline and by a bound of its own — whatever the actor does with its signal: a request stuck in a DNS lookup, a
// TCP connect, or an SDK that never looks at its signal must not hold the run past either.
import { ActorError } from '../../ports/actor';
import type { Actor } from '../../ports/actor';
import type { Clock } from '../../ports/clock';
import type { RunDeadline } from './bounds/deadline';
import { abortError } from '../../base/abort';

/** Longest any actor's check may take; the OpenAI actor's own bound (10 s) trips before it. */
export const ACTOR_CHECK_BOUND_MS = 30_000;

export interface CheckStop {
  reason: 'actor-error' | 'budget-time';
  text: string;
}

export interface CheckBounds {
  deadline: RunDeadline;
  /** The person's cancel: a stop then is theirs to report, not the check's. */
  cancel: AbortSignal;
  clock: Clock;
  maxMinutes: number;
  boundMs?: number;
}

/** Resolves with what stops the run before its first test run, or null when the model may be asked. */
export async function checkActorWithin(actor: Actor, bounds: CheckBounds): Promise<CheckStop | null> {
  if (!actor.check) return null;
  const { deadline, cancel, clock, maxMinutes } = bounds;
  const boundMs = bounds.boundMs ?? ACTOR_CHECK_BOUND_MS;
  const given = new AbortController();
  const timer = new AbortController();
  let boundTripped = false;
  const onDeadline = () => given.abort(deadline.signal.reason);
  if (deadline.signal.aborted) onDeadline();
  else deadline.signal.addEventListener('abort', onDeadline, { once: true });
  clock.sleep(boundMs, timer.signal).then(
    () => {
      boundTripped = true;
      given.abort(abortError());
    },
    () => undefined,
  );
  const abandoned = new Promise<never>((_, reject) => {
    if (given.signal.aborted) reject(abortError(given.signal));
    else given.signal.addEventListener('abort', () => reject(abortError(given.signal)), { once: true });
  });
  try {
    const checking = given.signal.aborted ? abandoned : actor.check(given.signal);
    // An abandoned check may still settle later: nobody is waiting for it any more.
    checking.catch(() => undefined);
    await Promise.race([checking, abandoned]);
    return null;
  } catch (err) {
    if (deadline.expired) {
      return { reason: 'budget-time', text: `The time budget (${maxMinutes} min) ran out while the model was checked, before the first test run; nothing was changed.` };
    }
    if (cancel.aborted) throw abortError(cancel);
    if (boundTripped) {
      return { reason: 'actor-error', text: `The model (${actor.label}) did not answer Greenloop's check within ${boundMs >= 1000 ? `${Math.round(boundMs / 1000)} s` : `${boundMs} ms`}; check that it is running and reachable.` };
    }
    if (err instanceof ActorError) return { reason: 'actor-error', text: err.message };
    throw err;
  } finally {
    timer.abort();
    deadline.signal.removeEventListener('abort', onDeadline);
    abandoned.catch(() => undefined);
  }
}
