// Reads a Server-Sent Events body into `data` payloads. eventsource-parser does the framing (CRLF, split
// lines, comments, multi-line data); this only drives it from a fetch body and lets the caller stop early.
import { createParser } from 'eventsource-parser';

export interface SseReadResult {
  /** True when the caller asked to stop (e.g. at `[DONE]`), false when the body simply ended. */
  stopped: boolean;
}

/**
 * Feeds the body to the parser and calls onData for each event's data. Returning `'stop'` from onData
 * ends the read and releases the connection. onBytes runs on every received chunk (idle timers).
 */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  onData: (data: string) => 'stop' | void,
  onBytes?: () => void,
): Promise<SseReadResult> {
  let stopped = false;
  let failure: unknown;
  const parser = createParser({
    onEvent: (event) => {
      if (stopped || failure !== undefined) return;
      try {
        if (onData(event.data) === 'stop') stopped = true;
      } catch (err) {
        failure = err;
      }
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        parser.feed(decoder.decode());
        // A last event without its blank line still counts: some servers close right after it.
        parser.reset({ consume: true });
        break;
      }
      onBytes?.();
      parser.feed(decoder.decode(value, { stream: true }));
      if (failure !== undefined) throw failure;
      if (stopped) break;
    }
    if (failure !== undefined) throw failure;
  } finally {
    if (stopped || failure !== undefined) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  return { stopped };
}
