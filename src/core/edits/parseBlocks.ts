// Reads SEARCH/REPLACE blocks out of a model's free-form answer (format in ../../../shared/contract.md).
import { readUnifiedDiff } from './unifiedDiff';
// Models are sloppy about the wrapping (fences, bold paths, 6 or 8 angle brackets), so the wrapping is
// tolerated; the block structure itself is not guessed at — a broken block is an error the model must fix.

export interface EditBlock {
  /** As the model wrote it, minus decoration; pathPolicy normalizes and checks it. */
  path: string;
  /** Whole lines, each ending in "\n"; "" means "create this file". */
  search: string;
  replace: string;
  /** How the block was read when it was not a plain block under a path line: counted in the report's `matchedBy`. */
  via?: 'fence-path' | 'unified-diff';
  /** How a refusal names it instead of "block N": "Hunk 2 (`@@ -3,4 +3,4 @@`) of the diff". */
  label?: string;
}

export interface ParsedAnswer {
  blocks: EditBlock[];
  /** One sentence per problem; any error makes the whole proposal invalid. */
  errors: string[];
  /** Text outside the blocks (the model's explanation), kept as its hypothesis. */
  prose: string;
}

const HEAD = /^\s*<{5,9}\s*SEARCH\s*$/i;
const DIVIDER = /^\s*={5,9}\s*$/;
const TAIL = /^\s*>{5,9}\s*REPLACE\s*$/i;
const FENCE_OPEN = /^\s*(?:`{3,}|~{3,})/;

/** A fence line's info string (after the backticks, "" for none); null when the line is not a fence. */
export function fenceInfo(line: string): string | null {
  const m = FENCE_OPEN.exec(line);
  if (!m) return null;
  const info = line.slice(m[0].length).trim();
  return info.includes('`') ? null : info;
}

const isFence = (line: string) => fenceInfo(line) !== null;

/**
 * The path in a fence's info string (```` ```js src/cart.js ````, ```` ```src/cart.js ````, ```` ```ts:src/a.ts ````,
 * `title="a.py"`); null when it names only a language. A word is a path when it has a folder or an extension.
 */
export function infoPath(info: string): string | null {
  for (const word of info.split(/[\s:]+/)) {
    const w = word.replace(/^(?:title|file(?:name)?|path)=/i, '');
    if (!/[/\\]|\.[A-Za-z][A-Za-z0-9]*["']?$/.test(w)) continue;
    const p = cleanPathLine(w);
    if (p !== null) return p;
  }
  return null;
}

const FORMAT_HINT = 'write the path on its own line, then <<<<<<< SEARCH, the exact lines, =======, the new lines and >>>>>>> REPLACE';

/** No file system takes a path longer than this (Linux PATH_MAX); a longer line is prose, and is never scanned. */
export const MAX_PATH_LINE = 4096;

const PATH_LABEL = /(?:file(?:name)?|path)\s*:\s*/iy;

/**
 * Strips the decoration models put around a path line; null when the line reads like prose, not a path.
 * Decoration (`**`, quotes, backticks, "File:", a colon) may be nested in any order, so it is peeled off both ends
 * until nothing changes — by moving two indices, so each character is looked at a bounded number of times.
 */
export function cleanPathLine(line: string): string | null {
  if (line.length > MAX_PATH_LINE) return null;
  let s = line.trim();
  const colonEnded = /:\s*$/.test(s);
  s = s.replace(/^#+\s*/, '').replace(/^[-*]\s+/, '');
  let lo = 0;
  let hi = s.length;
  const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);
  const trim = () => {
    while (lo < hi && isSpace(s[lo])) lo++;
    while (hi > lo && isSpace(s[hi - 1])) hi--;
  };
  const starsAt = (i: number) => s[i] === '*' && s[i + 1] === '*';
  let wrapped = false;
  let labelMissAt = -1;
  for (let changed = true; changed; ) {
    const [lo0, hi0] = [lo, hi];
    // "**a.js**" and "**a.js**:" lose both ends at once; then a lone "**" on either end goes too.
    if (hi - lo >= 4 && starsAt(lo)) {
      if (s[hi - 1] === ':' && hi - lo >= 5 && starsAt(hi - 3)) {
        lo += 2;
        hi -= 3;
      } else if (starsAt(hi - 2)) {
        lo += 2;
        hi -= 2;
      }
    }
    if (hi - lo >= 2 && starsAt(lo)) lo += 2;
    if (hi - lo >= 2 && starsAt(hi - 2)) hi -= 2;
    trim();
    // A label that did not match at this start cannot match later: the end only ever moves inwards.
    if (lo !== labelMissAt) {
      PATH_LABEL.lastIndex = lo;
      const label = PATH_LABEL.exec(s);
      if (label && lo + label[0].indexOf(':') < hi) lo = Math.min(PATH_LABEL.lastIndex, hi);
      else labelMissAt = lo;
    }
    if (hi > lo && s[hi - 1] === ':') hi--;
    trim();
    const q = s[lo];
    if (hi - lo >= 2 && (q === '`' || q === "'" || q === '"') && s[hi - 1] === q) {
      lo++;
      hi--;
      trim();
      wrapped = true;
    }
    changed = lo !== lo0 || hi !== hi0;
  }
  const p = s.slice(lo, hi).replace(/\\_/g, '_');
  if (p === '' || p === '...') return null;
  if (!wrapped && /\s/.test(p)) return null;
  if (!wrapped && /[.!?,;]$/.test(p)) return null;
  // "Then:" is prose; "Makefile" on its own line, or anything with a dot or slash, is a path.
  if (!wrapped && colonEnded && !/[./\\]/.test(p)) return null;
  return p;
}

interface Pending {
  n: number;
  path: string | null;
  start: number;
  via?: 'fence-path';
}

export function parseEditBlocks(answer: string): ParsedAnswer {
  const lines = answer.replace(/\r\n?/g, '\n').split('\n');
  const blocks: EditBlock[] = [];
  const errors: string[] = [];
  const used = new Array<boolean>(lines.length).fill(false);
  let lastPath: string | null = null;
  let regionStart = 0;
  let blockNo = 0;
  let i = 0;

  const where = (p: Pending) => (p.path ? ` for ${p.path}` : '');

  while (i < lines.length) {
    if (TAIL.test(lines[i]!)) {
      errors.push(`Line ${i + 1} has >>>>>>> REPLACE without a <<<<<<< SEARCH before it; ${FORMAT_HINT}.`);
      used[i] = true;
      i++;
      regionStart = i;
      continue;
    }
    if (!HEAD.test(lines[i]!)) {
      i++;
      continue;
    }
    blockNo++;
    const found = findPath(lines, regionStart, i, used);
    const pending: Pending = { n: blockNo, path: found?.path ?? null, start: i, ...(found?.via ? { via: found.via } : {}) };
    if (pending.path === null) pending.path = lastPath;
    else lastPath = pending.path;

    const searchLines: string[] = [];
    const replaceLines: string[] = [];
    let j = i + 1;
    while (j < lines.length && !DIVIDER.test(lines[j]!) && !HEAD.test(lines[j]!) && !TAIL.test(lines[j]!)) searchLines.push(lines[j++]!);
    if (j >= lines.length || !DIVIDER.test(lines[j]!)) {
      errors.push(`Block ${pending.n}${where(pending)} has no ======= line after its SEARCH lines; ${FORMAT_HINT}.`);
      markUsed(used, i, j);
      // The next block may have put its path line inside this broken one.
      regionStart = i + 1;
      i = j;
      continue;
    }
    j++;
    while (j < lines.length && !TAIL.test(lines[j]!) && !HEAD.test(lines[j]!)) replaceLines.push(lines[j++]!);
    if (j >= lines.length || !TAIL.test(lines[j]!)) {
      errors.push(`Block ${pending.n}${where(pending)} is not closed: >>>>>>> REPLACE is missing after its replacement lines.`);
      markUsed(used, i, j);
      // The next block may have put its path line inside this broken one.
      regionStart = i + 1;
      i = j;
      continue;
    }
    markUsed(used, i, j + 1);
    if (pending.path === null) {
      errors.push(`Block ${pending.n} has no file path line before <<<<<<< SEARCH; ${FORMAT_HINT}.`);
    } else {
      blocks.push({ path: pending.path, search: joinLines(searchLines), replace: joinLines(replaceLines), ...(pending.via ? { via: pending.via } : {}) });
    }
    i = j + 1;
    regionStart = i;
  }

  if (blockNo === 0) {
    // No block: an answer written as a unified diff is read hunk by hunk.
    const diff = readUnifiedDiff(lines, (at) => findPath(lines, 0, at, used)?.path ?? null);
    if (diff) {
      for (const k of diff.used) used[k] = true;
      // The fence that opens the diff is wrapping, not prose.
      for (let k = (diff.used[0] ?? 0) - 1; k >= 0 && (lines[k]!.trim() === '' || isFence(lines[k]!)); k--) if (lines[k]!.trim() !== '') used[k] = true;
      return { blocks: diff.blocks, errors: diff.errors, prose: proseOf(lines, used) };
    }
    errors.push(`The answer contains no SEARCH/REPLACE block, so nothing was changed; to edit a file, ${FORMAT_HINT}.`);
  }
  return { blocks, errors, prose: proseOf(lines, used) };
}

/**
 * The path is the last non-empty line before the block that is not a fence, looking no further back than
 * the previous block; failing that, a path in the info string of a fence on the way. null means "none here": the
 * caller reuses the previous block's path, as several blocks for one file commonly follow a single path line.
 */
function findPath(lines: string[], from: number, head: number, used: boolean[]): { path: string; via?: 'fence-path' } | null {
  let fromFence: string | null = null;
  for (let k = head - 1; k >= from; k--) {
    const line = lines[k]!;
    if (line.trim() === '') continue;
    const info = fenceInfo(line);
    if (info !== null) {
      used[k] = true;
      fromFence ??= infoPath(info);
      continue;
    }
    const p = cleanPathLine(line);
    if (p !== null) {
      used[k] = true;
      return { path: p };
    }
    break;
  }
  return fromFence === null ? null : { path: fromFence, via: 'fence-path' };
}

function markUsed(used: boolean[], from: number, to: number): void {
  for (let k = from; k < to && k < used.length; k++) used[k] = true;
}

function joinLines(ls: string[]): string {
  return ls.map((l) => `${l}\n`).join('');
}

function proseOf(lines: string[], used: boolean[]): string {
  const kept: string[] = [];
  for (let k = 0; k < lines.length; k++) {
    if (used[k]) continue;
    // A closing fence right after a block belongs to the block, not to the prose.
    if (isFence(lines[k]!) && k > 0 && used[k - 1]) {
      used[k] = true;
      continue;
    }
    kept.push(lines[k]!);
  }
  return kept.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}
