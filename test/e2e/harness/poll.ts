import { ceiling, seconds } from './patience';

/**
 * Polls `read` until `accept` likes its value; on timeout the error shows the last value seen, which is
 * what a person would have seen on screen. The UI updates asynchronously, so single reads would be flaky.
 * `quietMs` is what a quiet machine needs, with room to spare; the wait's ceiling is that stretched by the machine's
 * load as the wait starts (patience.ts), and a wait that is answered never waits for it.
 */
export async function eventually<T>(
  what: string,
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  quietMs = 30_000,
): Promise<T> {
  const limit = ceiling(quietMs);
  const deadline = Date.now() + limit;
  let last: T | undefined;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      last = await read();
      if (accept(last)) return last;
    } catch (err) {
      lastError = err;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const seen = last === undefined ? `nothing (${String(lastError)})` : JSON.stringify(last);
  throw new Error(`Timed out after ${seconds(limit)} waiting for ${what}; last seen: ${seen}.`);
}
