// Strategy 6: a SEARCH and REPLACE that both stand `...` or `// ... existing code ...` for lines left as they are
// (Aider's "dotdotdots"). Each piece between elisions is placed by the stricter strategies: the first where it occurs
// exactly once in the file, each next one where it occurs exactly once after the one before it; the elided lines stay
// as they are. Refused, naming the elision, when a piece is not unique or the REPLACE does not keep the same elisions.
import type { Line } from './lines';
import { exact } from './exact';
import { trailingWhitespace } from './trailingWhitespace';
import { indentation } from './indentation';
import { findIgnoringBlankLines } from './blankLines';
import { NONE, type Piece, type Strategy, type StrategyResult } from './strategy';

// Bare `...`/`…`, or a comment that starts with one: `// ... existing code ...`, `# ...`, `/* ... */`, `<!-- ... -->`.
// `...rest,` (a spread) is code: the dots must be followed by a blank or the end.
const ELISION = /^(?:(?:\/\/+|#+|--|;+|\/\*+|<!--|\{\s*\/\*+)\s*)?(?:\.\.\.|…)(?:\s+[A-Za-z][\w\s,'’()-]{0,60}?)?\s*(?:\.\.\.|…)?\s*(?:\*+\/\s*\}?|-->)?$/;
const COMMENTED = /^(?:\/\/|#|--|;|\/\*|<!--|\{)/;

/** A placeholder is a short line; a longer one is never read by the pattern (whose blanks could be tried many ways). */
const MAX_ELISION_CHARS = 120;
/** Each piece is looked for in the rest of the file: the pieces are bounded so the time stays linear in practice. */
const MAX_ELISIONS = 50;

export function isElision(line: string): boolean {
  const t = line.trim();
  return t.length <= MAX_ELISION_CHARS && ELISION.test(t);
}

/** Elisions that can only be a placeholder: a bare `...` is a statement in Python, so there only comments count. */
export function placeholderCount(lines: readonly string[], python: boolean): number {
  return lines.filter((l) => isElision(l) && (!python || COMMENTED.test(l.trim()))).length;
}

function split(lines: readonly string[]): { pieces: string[][]; markers: number[] } {
  const pieces: string[][] = [[]];
  const markers: number[] = [];
  lines.forEach((l, k) => {
    if (isElision(l)) {
      markers.push(k);
      pieces.push([]);
    } else pieces[pieces.length - 1]!.push(l);
  });
  return { pieces, markers };
}

const STRICTER: Array<(file: Line[], s: string[], r: string[]) => StrategyResult> = [
  (file, search, replace) => exact.find({ file, search, replace }),
  (file, search, replace) => trailingWhitespace.find({ file, search, replace }),
  (file, search, replace) => indentation.find({ file, search, replace }),
  findIgnoringBlankLines,
];

function placeIn(file: Line[], from: number, search: string[], replace: string[]): StrategyResult {
  const window = file.slice(from);
  for (const find of STRICTER) {
    const r = find(window, search, replace);
    if (r.kind === 'none') continue;
    if (r.kind === 'ambiguous') return { kind: 'ambiguous', lines: r.lines.map((l) => l + from) };
    if (r.kind === 'placed') {
      const shift = (p: Piece): Piece => ({ ...p, start: p.start + from, end: p.end + from, map: p.map.map((m) => (m < 0 ? m : m + from)) });
      return { kind: 'placed', pieces: r.pieces.map(shift) };
    }
    return r;
  }
  return NONE;
}

export const elisions: Strategy = {
  name: 'elision',
  rebase: true,
  find: ({ file, search, replace }) => {
    const s = split(search);
    if (s.markers.length === 0) return NONE;
    if (s.markers.length > MAX_ELISIONS) return { kind: 'refused', hint: `its SEARCH leaves lines out in ${s.markers.length} places, more than the ${MAX_ELISIONS} Greenloop places; split it into several blocks` };
    const r = split(replace);
    const name = (e: number) => `elision ${e + 1} (\`${search[s.markers[e]!]!.trim()}\`, line ${s.markers[e]! + 1} of the SEARCH)`;
    if (r.markers.length !== s.markers.length) {
      const e = Math.min(r.markers.length, s.markers.length - 1);
      return { kind: 'refused', hint: `its SEARCH leaves lines out with ${s.markers.length} elision${s.markers.length === 1 ? '' : 's'} but its REPLACE has ${r.markers.length}, so Greenloop cannot tell what ${name(e)} keeps; keep every elision of the SEARCH in the REPLACE, in the same order` };
    }
    const pieces: Piece[] = [];
    let from = 0;
    for (let p = 0; p < s.pieces.length; p++) {
      const sp = s.pieces[p]!;
      const rp = r.pieces[p]!;
      if (sp.every((l) => l.trim() === '')) {
        if (rp.some((l) => l.trim() !== '')) {
          const e = p === 0 ? 0 : p - 1;
          return { kind: 'refused', hint: `its REPLACE puts new lines ${p === 0 ? 'before' : 'after'} ${name(e)}, where its SEARCH has no line to place them by; add the file's lines there to the SEARCH` };
        }
        continue;
      }
      const placed = placeIn(file, from, sp, rp);
      const which = p === 0 ? `the lines before ${name(0)}` : `the lines after ${name(p - 1)}`;
      if (placed.kind === 'ambiguous') {
        const where = p === 0 ? 'in the file' : `after line ${from} of the file`;
        return { kind: 'refused', hint: `${which} occur ${placed.lines.length} times ${where} (lines ${placed.lines.slice(0, 10).join(', ')}), so the elision is ambiguous; include more lines there` };
      }
      if (placed.kind !== 'placed') {
        const where = p === 0 ? 'are not in the file' : `are not in the file after line ${from}`;
        return { kind: 'refused', hint: `${which} ${where}`, near: sp };
      }
      pieces.push(...placed.pieces);
      from = placed.pieces[placed.pieces.length - 1]!.end;
    }
    return pieces.length ? { kind: 'placed', pieces } : NONE;
  },
};
