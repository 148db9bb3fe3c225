// Strategy 4: the SEARCH has a blank line more or fewer than the file (anywhere), its other lines match by indentation.
// Blank lines are set aside on both sides, the rest must occur exactly once.
import { findAll } from './findLines';
import { isBlank, type Line } from './lines';
import { trimmed } from './indentation';
import { NONE, type Piece, type Strategy, type StrategyResult } from './strategy';

/** Places `search` in `file` with blank lines ignored; also used for each piece between elisions. */
export function findIgnoringBlankLines(file: readonly Line[], search: string[], replace: string[]): StrategyResult {
  const solid: number[] = [];
  file.forEach((l, i) => {
    if (!isBlank(l.text)) solid.push(i);
  });
  const want = search.filter((s) => !isBlank(s));
  if (want.length === 0) return NONE;
  const hits = findAll(solid.map((i) => file[i]!), want, trimmed);
  if (hits.length > 1) return { kind: 'ambiguous', lines: hits.map((h) => solid[h]! + 1) };
  if (hits.length === 0) return NONE;
  let next = hits[0]!;
  const map = search.map((s) => (isBlank(s) ? -1 : solid[next++]!));
  const piece: Piece = { start: solid[hits[0]!]!, end: solid[hits[0]! + want.length - 1]! + 1, search, replace, map };
  return { kind: 'placed', pieces: [piece] };
}

export const blankLines: Strategy = {
  name: 'blank-lines',
  rebase: true,
  find: ({ file, search, replace }) => findIgnoringBlankLines(file, search, replace),
};
