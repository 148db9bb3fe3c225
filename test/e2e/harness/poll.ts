/**
 * Polls `read` until `accept` likes its value; on timeout the error shows the last value seen, which is
 * what a person would have seen on screen. The UI updates asynchronously, so single reads would be flaky.
 */
export async function eventually<T>(
  what: string,
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
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
  throw new Error(`Timed out after ${timeoutMs / 1000}s waiting for ${what}; last seen: ${seen}.`);
}
