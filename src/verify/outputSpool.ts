// A test command's whole output, kept as lines for the parser: the first megabyte in memory, the rest in a temp file,
// so a log of any size is read whole (every failure found) while memory stays bounded. The runner's excerpt for
// prompts is a separate, smaller copy (boundedBuffer.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import stripAnsi from 'strip-ansi';
import { ownCopy } from './ownCopy';

/** Characters of output held in memory before the rest goes to disk. */
export const IN_MEMORY_CHARS = 1_000_000;
/** Characters of the head and of the tail that format detection looks at. */
const SAMPLE_CHARS = 256 * 1024;
const FLUSH_CHARS = 64 * 1024;
const READ_CHARS = 64 * 1024;

export class OutputSpool {
  /** The first lines, up to the in-memory limit. */
  private readonly head: string[] = [];
  private headChars = 0;
  /** Before the spill: the line not yet ended. */
  private partial = '';
  private file: string | null = null;
  private fd: number | null = null;
  /** After the spill: output not yet written, as it arrived (never split into lines: that is the reader's work). */
  private pending: string[] = [];
  private pendingChars = 0;
  // The last chunks, at least SAMPLE_CHARS of them: a queue, so keeping it costs no copying per chunk.
  private readonly tail: string[] = [];
  private tailStart = 0;
  private tailChars = 0;
  private totalChars = 0;
  private ended = false;

  constructor(private readonly limitChars = IN_MEMORY_CHARS) {}

  /** Output as it arrives, in any chunks. */
  write(chunk: string): void {
    if (chunk === '' || this.ended) return;
    this.totalChars += chunk.length;
    this.keepInTail(chunk);
    if (this.file !== null) {
      this.toDisk(chunk);
      return;
    }
    if (!chunk.includes('\n')) {
      // A line arriving in many chunks is joined once, not re-split with every chunk.
      this.partial += chunk;
      if (this.headChars + this.partial.length > this.limitChars) this.spill([this.partial]);
      return;
    }
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (this.headChars + line.length > this.limitChars) {
        // This line and everything after it go to disk as they came.
        this.spill([...lines.slice(i), this.partial]);
        return;
      }
      this.head.push(line);
      this.headChars += line.length + 1;
    }
    if (this.headChars + this.partial.length > this.limitChars) this.spill([this.partial]);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.partial) this.head.push(this.partial);
    this.partial = '';
    this.flush();
  }

  /** Head and tail of the output, ANSI-free, for telling which runner wrote it. */
  sample(): string {
    this.end();
    const head: string[] = [];
    let n = 0;
    for (const line of this.head) {
      if (n > SAMPLE_CHARS) break;
      head.push(line);
      n += line.length + 1;
    }
    if (this.file === null && n <= SAMPLE_CHARS) return clean(head.join('\n'));
    let tail = this.tail.slice(this.tailStart).join('');
    // The queue starts inside a line unless it holds the whole output: that cut line is not a line the runner wrote.
    if (this.tailChars < this.totalChars) tail = tail.slice(tail.indexOf('\n') + 1);
    return clean(`${head.join('\n')}\n${tail}`);
  }

  /**
   * Every line, in order, ANSI-free and without its line ending. Each line is its own string (see ownCopy.ts): a
   * title or message a parser keeps from a line must not keep the 64 KB chunk the line was read in. A line longer
   * than `maxChars` is cut there as it is read, so a gigabyte without a line end never becomes one string.
   */
  async forEachLine(fn: (line: string) => void, maxChars = Infinity): Promise<void> {
    this.end();
    const cut = (line: string) => (line.length > maxChars ? line.slice(0, maxChars) : line);
    for (const line of this.head) fn(ownCopy(clean(cut(line))));
    if (this.file === null) return;
    // Chunks, not readline: readline's async iterator makes a promise and a result object for every line, garbage
    // that a gigabyte of output turns into hundreds of megabytes of heap between two collections.
    const input = fs.createReadStream(this.file, { encoding: 'utf8', highWaterMark: READ_CHARS });
    let rest = '';
    // The start of a line longer than maxChars was kept in `rest`: the rest of it is skipped, up to its line end.
    let full = false;
    const more = (text: string): void => {
      if (full) return;
      rest += text;
      if (rest.length > maxChars) {
        rest = rest.slice(0, maxChars);
        full = true;
      }
    };
    for await (const chunk of input as AsyncIterable<string>) {
      let start = 0;
      let nl = chunk.indexOf('\n');
      if (nl < 0) {
        more(chunk);
        continue;
      }
      more(chunk.slice(0, nl));
      fn(ownCopy(clean(rest)));
      rest = '';
      full = false;
      start = nl + 1;
      while ((nl = chunk.indexOf('\n', start)) >= 0) {
        fn(ownCopy(clean(cut(chunk.slice(start, nl)))));
        start = nl + 1;
      }
      more(chunk.slice(start));
    }
    if (rest) fn(ownCopy(clean(rest)));
  }

  /** True when part of the output went to disk (it was larger than the in-memory limit). */
  get spilled(): boolean {
    return this.file !== null;
  }

  dispose(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
    if (this.file) fs.rmSync(path.dirname(this.file), { recursive: true, force: true });
    this.file = null;
  }

  /** From here on the output goes to a temp file: `parts` are joined with line ends between them. */
  private spill(parts: string[]): void {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-output-'));
    this.file = path.join(dir, 'output.log');
    this.fd = fs.openSync(this.file, 'w', 0o600);
    this.partial = '';
    this.toDisk(parts.join('\n'));
  }

  private toDisk(text: string): void {
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= FLUSH_CHARS) this.flush();
  }

  private keepInTail(chunk: string): void {
    this.tail.push(chunk);
    this.tailChars += chunk.length;
    while (this.tailChars - this.tail[this.tailStart].length >= SAMPLE_CHARS) {
      this.tailChars -= this.tail[this.tailStart].length;
      // Let go of the chunk now: 4,096 chunks left in the queue until it is compacted could be 500 MB.
      this.tail[this.tailStart] = '';
      this.tailStart++;
    }
    // Drop the emptied slots now and then, so the queue never grows with the output.
    if (this.tailStart > 4096) {
      this.tail.splice(0, this.tailStart);
      this.tailStart = 0;
    }
  }

  private flush(): void {
    if (this.fd === null || this.pendingChars === 0) return;
    fs.writeSync(this.fd, this.pending.join(''));
    this.pending = [];
    this.pendingChars = 0;
  }
}

function clean(line: string): string {
  // Most lines carry no escape code: skip the regex for them (a 50 MB log is a million lines).
  const s = line.includes('\u001b') || line.includes('\u009b') ? stripAnsi(line) : line;
  return s.endsWith('\r') ? s.slice(0, -1) : s.replace(/\r(?=\n)/g, '');
}
