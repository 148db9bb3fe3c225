// Writes one placed piece: the lines the model left as they were keep the file's own bytes (indentation, blank
// lines, trailing blanks), and only the lines it changed or added are written, re-based onto the file's indentation.
import { lineDiff } from './lineDiff';
import type { Line } from './lines';
import type { Piece } from './strategy';
import type { Rebaser } from './rebase';

/** A line of the result: a file line kept as it was (eol set), or a new one (eol null: the piece's ending). */
export interface OutLine {
  text: string;
  eol: Line['eol'] | null;
}

/** Past this many lines the SEARCH and REPLACE are not compared (the diff's time grows with their square); the REPLACE is written whole, re-based. */
const MAX_COMPARED = 2_000;

export function splicePiece(file: readonly Line[], piece: Piece, rb: Rebaser): OutLine[] {
  const { search, replace, map } = piece;
  const out: OutLine[] = [];
  const firstAnchor = search.findIndex((s, k) => s.trim() !== '' && map[k]! >= 0);
  const fileText = (k: number) => file[map[k]!]!.text;
  const add = (r: string, anchor: number) => out.push({ text: anchor < 0 ? r : rb.place(r, search[anchor]!, fileText(anchor)), eol: null });

  if (search.length + replace.length > MAX_COMPARED) {
    let anchor = firstAnchor;
    replace.forEach((r, j) => {
      const k = Math.min(j, search.length - 1);
      if (search[k]!.trim() !== '' && map[k]! >= 0) anchor = k;
      add(r, anchor);
    });
    return out;
  }

  let fi = piece.start;
  const keepUpTo = (m: number) => {
    for (; fi < m; fi++) out.push({ ...file[fi]! });
  };
  let k = 0;
  let j = 0;
  let anchor = firstAnchor;
  // The file's blank lines between two lines the model removed go with them.
  let removing = false;
  // Blank lines of the model's the file lacks: written only where the model puts new lines after them.
  let blanks = 0;
  for (const part of lineDiff(search.map((s) => s.trimEnd()), replace.map((r) => r.trimEnd()))) {
    for (let c = 0; c < part.count; c++) {
      if (part.kind === 'added') {
        // The file's own blank lines before the next SEARCH line come first: a new line joins the code after it.
        if (c === 0) {
          const had = out.length;
          if (k < search.length && map[k]! >= 0) keepUpTo(map[k]!);
          if (out.length === had) for (; blanks > 0; blanks--) out.push({ text: '', eol: null });
          blanks = 0;
        }
        add(replace[j++]!, anchor);
        continue;
      }
      const m = map[k]!;
      if (m < 0 && part.kind === 'common' && search[k]!.trim() === '') blanks++;
      if (m >= 0) {
        blanks = 0;
        if (removing && part.kind === 'removed') fi = m;
        keepUpTo(m);
        if (part.kind === 'common') out.push({ ...file[m]! });
        fi = m + 1;
        if (search[k]!.trim() !== '') anchor = k;
        removing = part.kind === 'removed';
      }
      k++;
      if (part.kind === 'common') j++;
    }
  }
  keepUpTo(piece.end);
  return out;
}
