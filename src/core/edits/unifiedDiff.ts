// Reads an answer written as a unified diff (`--- a/…`, `+++ b/…`, `@@` hunks) instead of SEARCH/REPLACE blocks:
// each hunk becomes a block whose SEARCH is its context and removed lines and whose REPLACE is its context and added
// lines, so it is placed by its text with the same tolerance and refusals as any block. The line numbers in the
// `@@` header are not used: models copy them stale, and write `@@ ... @@` without any. Hand-read rather than with
// jsdiff's parsePatch, which refuses a hunk whose line counts disagree with its header — the common case here.
import type { EditBlock } from './parseBlocks';

export interface DiffRead {
  blocks: EditBlock[];
  errors: string[];
  /** Line indexes the diff used (headers and hunks), which are not prose. */
  used: number[];
}

const HUNK = /^@@.*?@@|^@@\s*$/;
const OLD = /^--- (?!-)/;
const NEW = /^\+\+\+ /;
const GIT = /^diff --git /;

/** `a/src/x.js\t2024-01-01 …` → `src/x.js`; null for /dev/null. */
function diffPath(rest: string): string | null {
  const p = rest.split('\t')[0]!.trim().replace(/^["']|["']$/g, '');
  if (p === '/dev/null') return null;
  return p.replace(/^[ab]\//, '');
}

/**
 * The hunks of the answer's lines, or null when there is none. `pathBefore(line)` finds a path line before the
 * diff for hunks whose diff names no file.
 */
export function readUnifiedDiff(lines: readonly string[], pathBefore: (index: number) => string | null): DiffRead | null {
  const out: DiffRead = { blocks: [], errors: [], used: [] };
  let path: string | null = null;
  let isNew = false;
  let deleted: string | null = null;
  const hunksOf = new Map<string, number>();
  let sawHunk = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (GIT.test(line)) {
      out.used.push(i);
      continue;
    }
    if (OLD.test(line) && NEW.test(lines[i + 1] ?? '')) {
      const before = diffPath(line.slice(4));
      const after = diffPath(lines[i + 1]!.slice(4));
      out.used.push(i, i + 1);
      i++;
      isNew = before === null;
      deleted = after === null ? before : null;
      path = after ?? before;
      continue;
    }
    const header = HUNK.exec(line);
    if (!header) continue;
    sawHunk = true;
    out.used.push(i);
    const search: string[] = [];
    const replace: string[] = [];
    // The header's counts, when it has them, end the hunk before a blank line and a `- ` list in the prose after it.
    const counts = /^@@\s*-\d+(?:,(\d+))?\s+\+\d+(?:,(\d+))?\s*@@/.exec(line);
    const full = () => counts !== null && search.length >= Number(counts[1] ?? 1) && replace.length >= Number(counts[2] ?? 1);
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j]!;
      if (l === '' && full()) break;
      if (HUNK.test(l) || GIT.test(l) || (OLD.test(l) && NEW.test(lines[j + 1] ?? ''))) break;
      if (l.startsWith('\\')) continue;
      const tag = l[0];
      if (tag === ' ' || l === '') {
        search.push(l.slice(1));
        replace.push(l.slice(1));
      } else if (tag === '-') search.push(l.slice(1));
      else if (tag === '+') replace.push(l.slice(1));
      else break;
      out.used.push(j);
    }
    // Blank lines after a hunk separate it from what follows; they are not context.
    while (search.length && replace.length && search[search.length - 1] === '' && replace[replace.length - 1] === '' && lines[j - 1] === '') {
      search.pop();
      replace.pop();
      j--;
    }
    i = j - 1;
    const file = path ?? pathBefore(out.used[0]!);
    const n = (hunksOf.get(file ?? '') ?? 0) + 1;
    hunksOf.set(file ?? '', n);
    const label = `Hunk ${n} (\`${header[0].trim()}\`) of the diff`;
    if (deleted !== null) {
      out.errors.push(`${label} deletes ${deleted}; Greenloop does not delete files through a diff — change its lines instead.`);
      continue;
    }
    if (file === null) {
      out.errors.push(`${label} names no file: write \`--- a/path\` and \`+++ b/path\` before its first hunk, or use SEARCH/REPLACE blocks.`);
      continue;
    }
    const joined = (ls: string[]) => ls.map((l) => `${l}\n`).join('');
    if (isNew) {
      out.blocks.push({ path: file, search: '', replace: joined(replace), via: 'unified-diff', label });
      continue;
    }
    if (search.every((l) => l.trim() === '')) {
      out.errors.push(`${label} for ${file} has no context or removed lines, so there is no place to put it; include the unchanged lines around the change.`);
      continue;
    }
    out.blocks.push({ path: file, search: joined(search), replace: joined(replace), via: 'unified-diff', label });
  }
  return sawHunk ? out : null;
}
