// Finds a SEARCH section in a file's text and splices in the REPLACE section, line by line, so every line the edit
// does not touch keeps its exact bytes (CRLF, a stray LF, the BOM, a missing last newline). The strategies, one per
// file in match/, are tried in a fixed order from exact to loose; the first that places the SEARCH wins, and one
// that finds several places stops the search, since a looser one could only find more.
import { dominantEol, sectionLines, splitLines, type Eol, type Line } from './match/lines';
import type { Strategy } from './match/strategy';
import { exact } from './match/exact';
import { trailingWhitespace } from './match/trailingWhitespace';
import { indentation } from './match/indentation';
import { blankLines } from './match/blankLines';
import { lineNumbers } from './match/lineNumbers';
import { elisions, isElision, placeholderCount } from './match/elisions';
import { fileIndentUnit, rebaser } from './match/rebase';
import { splicePiece, type OutLine } from './match/splice';
import { notFoundNote } from './match/closest';

export { sectionLines } from './match/lines';

export const STRATEGIES: readonly Strategy[] = [exact, trailingWhitespace, indentation, blankLines, lineNumbers, elisions];

export type ReplaceOutcome =
  | { ok: true; content: string; strategy: string; line: number }
  | { ok: false; kind: 'not-found'; hint: string }
  | { ok: false; kind: 'ambiguous'; strategy: string; lines: number[] }
  | { ok: false; kind: 'refused'; hint: string };

const BOM = '\uFEFF';

/** True when a SEARCH section says "create the file" (blank lines only count as empty). */
export function isEmptySection(section: string): boolean {
  return section.trim() === '';
}

/** A file where a bare `...` line is code (Python's Ellipsis), not an elision. */
const isPython = (path: string | undefined) => path !== undefined && /\.pyi?$/i.test(path);

/**
 * Replaces the one place where `search` occurs in `content`. `path` (the file's) only tells whether a bare `...` can
 * be code there.
 */
export function replaceOnce(content: string, search: string, replace: string, path?: string): ReplaceOutcome {
  const bom = content.startsWith(BOM);
  const file = splitLines(bom ? content.slice(1) : content);
  const want = sectionLines(search);
  const put = sectionLines(replace);
  if (want.length === 0) return { ok: false, kind: 'not-found', hint: 'its SEARCH section is empty' };
  // An elision only in the REPLACE would be written into the file as a line, and the code it stands for deleted.
  const python = isPython(path);
  if (placeholderCount(put, python) > placeholderCount(want, python)) {
    const at = put.findIndex((l) => isElision(l) && !want.includes(l));
    const shown = at >= 0 ? `\`${put[at]!.trim()}\` (line ${at + 1} of the REPLACE)` : 'an elision';
    return { ok: false, kind: 'refused', hint: `its REPLACE stands ${shown} for lines its SEARCH does not leave out, so that line would replace real code; write the new lines out in full` };
  }

  for (const strategy of STRATEGIES) {
    const r = strategy.find({ file, search: want, replace: put });
    if (r.kind === 'none') continue;
    if (r.kind === 'ambiguous') return { ok: false, kind: 'ambiguous', strategy: strategy.name, lines: r.lines };
    if (r.kind === 'refused') {
      const near = r.near ? `; ${notFoundNote(file, r.near)}` : '';
      return { ok: false, kind: 'refused', hint: `${r.hint}${near}` };
    }
    const rb = rebaser(strategy.rebase ? fileIndentUnit(file) : null, [...want, ...put]);
    const out: Array<Line | OutLine> = [];
    // One by one: spreading 100,000 lines into push() overflows the call stack.
    const keep = (from: number, to: number) => {
      for (let i = from; i < to; i++) out.push(file[i]!);
    };
    let at = 0;
    for (const piece of r.pieces) {
      keep(at, piece.start);
      const matched = file.slice(piece.start, piece.end);
      const fresh: OutLine[] = strategy.rebase ? splicePiece(file, piece, rb) : piece.replace.map((text) => ({ text, eol: null }));
      const eol: Eol = matched.find((l) => l.eol !== '')?.eol ?? dominantEol(file);
      const lastEol = matched[matched.length - 1]!.eol;
      fresh.forEach((l, k) => {
        if (l.eol === null || k === fresh.length - 1) l.eol = k === fresh.length - 1 ? lastEol : eol;
      });
      for (const l of fresh) out.push(l);
      at = piece.end;
      // Deleting the unterminated last line must not leave a newline the file never had.
      if (fresh.length === 0 && lastEol === '' && at === file.length && out.length > 0) out[out.length - 1] = { ...out[out.length - 1]!, eol: '' };
    }
    keep(at, file.length);
    const body = out.map((l) => l.text + l.eol).join('');
    return { ok: true, content: (bom ? BOM : '') + body, strategy: strategy.name, line: r.pieces[0]!.start + 1 };
  }
  return { ok: false, kind: 'not-found', hint: notFoundNote(file, want) };
}
