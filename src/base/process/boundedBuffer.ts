// Keeps the start and the end of a command's output in bounded memory: the first error is usually near the
// top and the summary at the bottom, while a runaway test can print gigabytes in between.

export const DEFAULT_HEAD_BYTES = 64 * 1024;
export const DEFAULT_TAIL_BYTES = 1024 * 1024;

export function omittedMarker(bytes: number): string {
  return `[greenloop: ${bytes} bytes omitted]`;
}

export class BoundedBuffer {
  private readonly head: Buffer[] = [];
  private headLen = 0;
  private tail: Buffer[] = [];
  private tailLen = 0;
  private total = 0;

  constructor(
    private readonly headBytes = DEFAULT_HEAD_BYTES,
    private readonly tailBytes = DEFAULT_TAIL_BYTES,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headLen < this.headBytes) {
      const take = Math.min(this.headBytes - this.headLen, rest.length);
      // Copy: a subarray would pin the whole (possibly 64 KB) chunk for the lifetime of the run.
      this.head.push(Buffer.from(rest.subarray(0, take)));
      this.headLen += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.tailBytes <= 0) return;
    this.tail.push(rest);
    this.tailLen += rest.length;
    while (this.tailLen - this.tail[0].length >= this.tailBytes) {
      this.tailLen -= this.tail[0].length;
      this.tail.shift();
    }
    if (this.tailLen > this.tailBytes) {
      const excess = this.tailLen - this.tailBytes;
      this.tail[0] = Buffer.from(this.tail[0].subarray(excess));
      this.tailLen -= excess;
    }
  }

  get totalBytes(): number {
    return this.total;
  }

  /** Decoded text; cut points are moved to UTF-8 character boundaries so no half character is shown. */
  read(): { text: string; droppedBytes: number } {
    const head = Buffer.concat(this.head, this.headLen);
    const tail = Buffer.concat(this.tail, this.tailLen);
    if (this.headLen + this.tailLen === this.total) {
      return { text: Buffer.concat([head, tail]).toString('utf8'), droppedBytes: 0 };
    }
    const headKept = head.subarray(0, completeUtf8Prefix(head));
    const tailKept = tail.subarray(leadingContinuationBytes(tail));
    const droppedBytes = this.total - headKept.length - tailKept.length;
    const headText = headKept.toString('utf8');
    const sep = headText === '' || headText.endsWith('\n') ? '' : '\n';
    const text = `${headText}${sep}${omittedMarker(droppedBytes)}\n${tailKept.toString('utf8')}`;
    return { text, droppedBytes };
  }
}

/** Length of the longest prefix that does not end inside a multi-byte character. */
function completeUtf8Prefix(buf: Buffer): number {
  const n = buf.length;
  for (let back = 1; back <= Math.min(4, n); back++) {
    const b = buf[n - back];
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}

function leadingContinuationBytes(buf: Buffer): number {
  let i = 0;
  while (i < buf.length && i < 3 && (buf[i] & 0xc0) === 0x80) i++;
  return i;
}
