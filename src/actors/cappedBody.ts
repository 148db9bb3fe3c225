// Reads an HTTP body with a ceiling: never more than `maxBytes` are held, and past them the rest is not read at all
// (the connection is released). Answers are capped by the answer size setting, error bodies by a small prefix.

export interface CappedBody {
  /** The first `maxBytes` bytes at most, decoded as UTF-8. */
  text: string;
  bytes: number;
  /** True when the body was longer than `maxBytes`: the rest was never read. */
  overflow: boolean;
}

/** `onBytes` sees every chunk as it arrives (the request's stall timer). */
export async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number, onBytes?: (n: number) => void): Promise<CappedBody> {
  if (!body) return { text: '', bytes: 0, overflow: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let overflow = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      onBytes?.(value.byteLength);
      const room = maxBytes - bytes;
      if (value.byteLength > room) {
        if (room > 0) chunks.push(value.subarray(0, room));
        bytes = maxBytes;
        overflow = true;
        break;
      }
      chunks.push(value);
      bytes += value.byteLength;
    }
  } finally {
    if (overflow) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  return { text: new TextDecoder().decode(Buffer.concat(chunks)), bytes, overflow };
}
