// The real clock. Its type is written out so base/ needs no port; it is what ports/clock.ts calls a Clock.
import { abortError } from './abort';

export const systemClock: { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> } = {
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
