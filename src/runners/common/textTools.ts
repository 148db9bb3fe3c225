import type { ReportedTest, TestStatus } from '../../ports/verifier';

// Small text helpers more than one parser needs. Only helpers whose behaviour is the same everywhere live here:
// the parsers' dedents differ on purpose (first line, fixed column, common minimum) and stay with their parser.

/** The N of "N word" in a summary line such as "2 failed, 5 passed, 1 todo"; 0 when the word is absent. */
export function countOf(parts: string, word: string): number {
  const m = new RegExp(`(\\d+) ${word}\\b`).exec(parts);
  return m ? Number(m[1]) : 0;
}

/** Leading spaces of a line (tabs not counted). */
export function indentOf(line: string): number {
  let n = 0;
  while (n < line.length && line[n] === ' ') n++;
  return n;
}

/** The lines without the blank lines before the first and after the last non-blank one. */
export function trimBlankLines(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start].trim() === '') start++;
  while (end > start && lines[end - 1].trim() === '') end--;
  return lines.slice(start, end);
}

/** A huge log is scored on its head and tail only (`size` characters each), where runners print what they are. */
export function headAndTail(text: string, size: number): string {
  return text.length > 2 * size ? text.slice(0, size) + '\n' + text.slice(-size) : text;
}

/**
 * The titles above a line of an indented title tree (mocha spec, jest --verbose): suites are plain lines, each
 * level two spaces deeper than its parent, starting at `base`. A line at any other indent (console output) is
 * not part of the tree and leaves it as it was.
 */
export class TitleTree {
  private readonly titles: string[] = [];

  constructor(private readonly base: number) {}

  /** The suite path a line at `indent` sits under, or null when the indent does not fit the tree. */
  parentsAt(indent: number): string[] | null {
    const depth = (indent - this.base) / 2;
    if (!Number.isInteger(depth) || depth < 0 || depth > this.titles.length) return null;
    this.titles.length = depth;
    return [...this.titles];
  }

  /** A suite title at `indent` (call parentsAt first): later lines two spaces deeper sit under it. */
  open(title: string): void {
    this.titles.push(title);
  }

  reset(): void {
    this.titles.length = 0;
  }

  /**
   * Reads one line: a leaf when `leaf` recognises its text (its full path and status are returned), nothing when
   * `leaf` says 'ignore' or the indent does not fit, else a suite title the lines below it sit under.
   */
  read(line: string, leaf: (text: string) => { title: string; status: TestStatus } | 'ignore' | null): ReportedTest | null {
    const text = line.trim();
    if (text === '') return null;
    const parents = this.parentsAt(indentOf(line));
    if (parents === null) return null;
    const found = leaf(text);
    if (found === 'ignore') return null;
    if (found) return { id: [...parents, found.title].join(' > '), status: found.status };
    this.open(text);
    return null;
  }
}
