// Transient model failures (rate limits, 5xx, timeouts, resets) are retried here so they cost wall clock
// but never an iteration; anything else is passed straight through.
import { ActorError } from './ports';
import type { Clock } from './ports';

export interface RetryOptions {
  /** Retries after the first attempt. */
  retries?: number;
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

/** An abort is a cancellation, never a failure to retry: callers tell them apart with this. */
export function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || (err as { code?: string }).code === 'ABORT_ERR');
}

export function abortError(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && isAbortError(reason)) return reason;
  const err = new Error('The operation was cancelled.');
  err.name = 'AbortError';
  return err;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError(signal));
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortError(signal));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, Math.max(0, ms));
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** Exponential backoff with "equal jitter": half the step is fixed, half random, so waits never collapse to 0. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const step = Math.min(maxMs, baseMs * 2 ** attempt);
  return Math.round(step / 2 + (step / 2) * random());
}

export async function withRetries<T>(fn: (attempt: number) => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const retries = opts.retries ?? DEFAULT_RETRIES;
  const baseMs = opts.baseMs ?? 1000;
  const maxMs = opts.maxMs ?? 30_000;
  const clock = opts.clock ?? systemClock;
  const random = opts.random ?? Math.random;
  for (let attempt = 0; ; attempt++) {
    if (opts.signal?.aborted) throw abortError(opts.signal);
    try {
      return await fn(attempt);
    } catch (err) {
      if (opts.signal?.aborted) throw abortError(opts.signal);
      if (!(err instanceof ActorError) || err.kind !== 'transient') throw err;
      if (attempt >= retries) {
        const last = err.message.replace(/[.\s]+$/, '');
        throw new ActorError(`The model server kept failing after ${retries} retries: ${last}.`, 'fatal');
      }
      const delayMs =
        err.retryAfterMs !== undefined
          ? Math.min(Math.max(0, err.retryAfterMs), maxMs)
          : backoffDelay(attempt, baseMs, maxMs, random);
      opts.onRetry?.(err, attempt + 1, delayMs);
      await clock.sleep(delayMs, opts.signal);
    }
  }
}
