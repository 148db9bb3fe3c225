// When two answers are the same edit: the files they leave, with whitespace and comments taken out, compared. Two
// models that wrote `a+b` and `a + b  // sum` agree; the vote counts them together (pick.ts).
import { createHash } from 'node:crypto';

export interface FileAfter {
  path: string;
  before: string | null;
  after: string | null;
}

/** Line comments (`//`, `#`) and block comments (C-style, Python docstring-like triple quotes are code, kept). */
const COMMENTS = /\/\*[\s\S]*?\*\/|(?<![:"'\w])\/\/[^\n]*|(?<![\w"'$])#(?![!{[])[^\n]*/g;

export function normalizedText(text: string): string {
  return text.replace(COMMENTS, '').replace(/\s+/g, '');
}

/** One key per edit: equal keys, the same code left behind. */
export function agreementKey(files: readonly FileAfter[]): string {
  const h = createHash('sha256');
  for (const f of [...files].sort((a, b) => a.path.localeCompare(b.path))) {
    h.update(`${f.path}\0${f.after === null ? '\u0001deleted' : normalizedText(f.after)}\0`);
  }
  return h.digest('hex');
}

/** Lines the edit removes plus lines it adds, counted as a multiset: order-blind, enough to say which edit is smaller. */
export function diffLines(files: readonly FileAfter[]): number {
  let n = 0;
  for (const f of files) {
    const before = count(f.before);
    const after = count(f.after);
    for (const [line, c] of before) n += Math.max(0, c - (after.get(line) ?? 0));
    for (const [line, c] of after) n += Math.max(0, c - (before.get(line) ?? 0));
  }
  return n;
}

function count(text: string | null): Map<string, number> {
  const m = new Map<string, number>();
  if (text === null) return m;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) m.set(line.trimEnd(), (m.get(line.trimEnd()) ?? 0) + 1);
  return m;
}
