// Transient model failures (rate limits, 5xx, timeouts, resets) are retried here so they cost wall clock
// but never an iteration; anything else is passed straight through. Each kind of failure has its own cap, and no
// wait ever outlasts the time budget.
import { ActorError } from '../../../ports/actor';
import type { ActorErrorCategory } from '../../../ports/actor';
import type { Clock } from '../../../ports/clock';
import { abortError } from '../../../base/abort';
import { systemClock } from '../../../base/systemClock';

/** Retries per kind of failure: what may pass is tried again, what will fail the same way is not. */
export const DEFAULT_RETRY_CAPS: Readonly<Record<ActorErrorCategory, number>> = {
  'rate-limit': 3,
  timeout: 3,
  network: 3,
  server: 2,
  deterministic: 0,
};

export interface RetryOptions {
  /** Upper bound on retries of any kind after the first attempt (the per-kind caps apply below it). */
  retries?: number;
  caps?: Partial<Record<ActorErrorCategory, number>>;
  /** The time budget: a wait that would outlast it is not started. */
  deadline?: { remainingMs(): number };
  baseMs?: number;
  /** Upper bound on one wait, also applied to a server's Retry-After. */
  maxMs?: number;
  clock?: Clock;
  signal?: AbortSignal;
  onRetry?: (err: ActorError, attempt: number, delayMs: number) => void;
  /** Source of jitter in [0,1); tests may pin it. */
  random?: () => number;
}

export const DEFAULT_RETRIES = 3;

/** Exponential backoff with "equal jitter": half the step is fixed, half random, so waits never collapse to 0. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const step = Math.min(maxMs, baseMs * 2 ** attempt);
  return Math.round(step / 2 + (step / 2) * random());
}

/** Thrown when the next retry's wait would outlast the time budget. */
export class RetryOutlastsBudget extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RetryOutlastsBudget';
  }
}

export async function withRetries<T>(fn: (attempt: number) => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const overall = opts.retries ?? Infinity;
  const caps = { ...DEFAULT_RETRY_CAPS, ...opts.caps };
  const baseMs = opts.baseMs ?? 1000;
  const maxMs = opts.maxMs ?? 30_000;
  const clock = opts.clock ?? systemClock;
  const random = opts.random ?? Math.random;
  const used: Partial<Record<ActorErrorCategory, number>> = {};
  for (let attempt = 0; ; attempt++) {
    if (opts.signal?.aborted) throw abortError(opts.signal);
    try {
      return await fn(attempt);
    } catch (err) {
      if (opts.signal?.aborted) throw abortError(opts.signal);
      if (!(err instanceof ActorError) || err.kind !== 'transient') throw err;
      const cap = Math.min(caps[err.category], overall);
      const n = used[err.category] ?? 0;
      if (n >= cap) {
        const last = err.message.replace(/[.\s]+$/, '');
        const tries = cap === 0 ? 'and is not retried' : `after ${cap} ${cap === 1 ? 'retry' : 'retries'}`;
        throw new ActorError(`The model server kept failing ${tries}: ${last}.`, 'fatal', undefined, err.category);
      }
      used[err.category] = n + 1;
      const delayMs =
        err.retryAfterMs !== undefined
          ? Math.min(Math.max(0, err.retryAfterMs), maxMs)
          : backoffDelay(attempt, baseMs, maxMs, random);
      const left = opts.deadline?.remainingMs() ?? Infinity;
      if (delayMs >= left) {
        const last = err.message.replace(/[.\s]+$/, '');
        throw new RetryOutlastsBudget(`${last}; waiting ${Math.ceil(delayMs / 1000)} s to try again would outlast the time budget (${Math.floor(left / 1000)} s left).`);
      }
      opts.onRetry?.(err, attempt + 1, delayMs);
      await clock.sleep(delayMs, opts.signal);
    }
  }
}
