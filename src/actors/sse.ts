// Reads a Server-Sent Events body into `data` payloads. eventsource-parser does the framing (CRLF, split
// lines, comments, multi-line data); this only drives it from a fetch body and lets the caller stop early.
import { createParser } from 'eventsource-parser';

export interface SseReadResult {
  /** True when the caller asked to stop (e.g. at `[DONE]`), false when the body simply ended. */
  stopped: boolean;
}

export interface SseReadOptions {
  /** Runs on every received chunk with its size (the request's stall timer). */
  onBytes?: (bytes: number) => void;
  /** Most bytes the parser may hold for one event that has not ended yet; past it the read fails with SseEventTooLarge. */
  maxEventBytes?: number;
}

/** A server sent more than the allowed bytes without ending an event: the parser would have had to hold them all. */
export class SseEventTooLarge extends Error {
  constructor(readonly limitBytes: number) {
    super(`The model server sent more than ${limitBytes} bytes without ending a stream event.`);
    this.name = 'SseEventTooLarge';
  }
}

/**
 * Feeds the body to the parser and calls onData for each event's data (and its `event:` name, if any). Returning `'stop'` from onData
 * ends the read and releases the connection.
 */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  onData: (data: string, event?: string) => 'stop' | void,
  options: SseReadOptions = {},
): Promise<SseReadResult> {
  let stopped = false;
  let failure: unknown;
  /** Bytes received since an event last ended (a chunk's tail after its last event is counted from the next one). */
  let pending = 0;
  const parser = createParser({
    onEvent: (event) => {
      pending = 0;
      if (stopped || failure !== undefined) return;
      try {
        if (onData(event.data, event.event) === 'stop') stopped = true;
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
      options.onBytes?.(value.byteLength);
      pending += value.byteLength;
      parser.feed(decoder.decode(value, { stream: true }));
      if (options.maxEventBytes !== undefined && pending > options.maxEventBytes && failure === undefined) failure = new SseEventTooLarge(options.maxEventBytes);
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
