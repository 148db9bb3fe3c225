// A test command's whole output, kept as lines for the parser: the first megabyte in memory, the rest in a temp file,
// so a log of any size is read whole (every failure found) while memory stays bounded. The runner's excerpt for
// prompts is a separate, smaller copy (boundedBuffer.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import stripAnsi from 'strip-ansi';

/** Characters of output held in memory before the rest goes to disk. */
export const IN_MEMORY_CHARS = 1_000_000;
/** Characters of the head and of the tail that format detection looks at. */
const SAMPLE_CHARS = 256 * 1024;
const FLUSH_CHARS = 64 * 1024;

export class OutputSpool {
  private readonly head: string[] = [];
  private headChars = 0;
  private partial = '';
  private file: string | null = null;
  private fd: number | null = null;
  private pending = '';
  // The last lines, up to SAMPLE_CHARS: a queue, so keeping it costs no copying per line.
  private readonly tail: string[] = [];
  private tailStart = 0;
  private tailChars = 0;
  private ended = false;

  constructor(private readonly limitChars = IN_MEMORY_CHARS) {}

  /** Output as it arrives, in any chunks. */
  write(chunk: string): void {
    const text = this.partial + chunk;
    const lines = text.split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.add(line);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.partial) this.add(this.partial);
    this.partial = '';
    this.flush();
  }

  /** Head and tail of the output, ANSI-free, for telling which runner wrote it. */
  sample(): string {
    const head: string[] = [];
    let n = 0;
    for (const line of this.head) {
      if (n > SAMPLE_CHARS) break;
      head.push(line);
      n += line.length + 1;
    }
    const tail = this.tail.slice(this.tailStart).join('\n');
    const text = this.file === null && n <= SAMPLE_CHARS ? head.join('\n') : `${head.join('\n')}\n${tail}`;
    return clean(text);
  }

  /** Every line, in order, ANSI-free and without its line ending. */
  async forEachLine(fn: (line: string) => void): Promise<void> {
    this.end();
    for (const line of this.head) fn(clean(line));
    if (this.file === null) return;
    const input = fs.createReadStream(this.file, { encoding: 'utf8' });
    const reader = readline.createInterface({ input, crlfDelay: Infinity });
    for await (const line of reader) fn(clean(line));
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

  private add(line: string): void {
    this.keepInTail(line);
    if (this.file === null && this.headChars + line.length <= this.limitChars) {
      this.head.push(line);
      this.headChars += line.length + 1;
      return;
    }
    if (this.file === null) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-output-'));
      this.file = path.join(dir, 'output.log');
      this.fd = fs.openSync(this.file, 'w', 0o600);
    }
    this.pending += `${line}\n`;
    if (this.pending.length >= FLUSH_CHARS) this.flush();
  }

  private keepInTail(line: string): void {
    this.tail.push(line);
    this.tailChars += line.length + 1;
    while (this.tailChars > SAMPLE_CHARS && this.tailStart < this.tail.length - 1) {
      this.tailChars -= this.tail[this.tailStart].length + 1;
      this.tailStart++;
    }
    // Drop what the queue left behind now and then, so it never grows with the output.
    if (this.tailStart > 4096) {
      this.tail.splice(0, this.tailStart);
      this.tailStart = 0;
    }
  }

  private flush(): void {
    if (this.fd === null || this.pending === '') return;
    fs.writeSync(this.fd, this.pending);
    this.pending = '';
  }
}

function clean(line: string): string {
  // Most lines carry no escape code: skip the regex for them (a 50 MB log is a million lines).
  const s = line.includes('\u001b') || line.includes('\u009b') ? stripAnsi(line) : line;
  return s.endsWith('\r') ? s.slice(0, -1) : s.replace(/\r(?=\n)/g, '');
}
