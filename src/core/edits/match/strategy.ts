// What a matching strategy answers: where the SEARCH sits in the file (one or more pieces), that it sits in several
// places, that it is refused for a reason of its own, or nothing. Every strategy lives in its own file here.
import type { Line } from './lines';

/** One contiguous part of the file a SEARCH (or one piece of it, between elisions) matched. */
export interface Piece {
  /** File lines [start, end). */
  start: number;
  end: number;
  /** The SEARCH lines as the strategy read them (line numbers stripped, elisions cut out). */
  search: string[];
  /** The REPLACE lines that go in their place, read the same way. */
  replace: string[];
  /** For each SEARCH line, the file line it matched; -1: a blank line the file does not have there. */
  map: number[];
}

export type StrategyResult =
  | { kind: 'none' }
  | { kind: 'ambiguous'; lines: number[] }
  /** The strategy saw what the model meant but cannot place it safely; `hint` says why, for the model; `near`: lines to quote the file's closest place for. */
  | { kind: 'refused'; hint: string; near?: string[] }
  | { kind: 'placed'; pieces: Piece[] };

export interface MatchInput {
  file: Line[];
  search: string[];
  replace: string[];
}

export interface Strategy {
  /** The name the report counts under `matchedBy`. */
  name: string;
  /** false for exact matches: the REPLACE is written as the model wrote it. */
  rebase: boolean;
  find(input: MatchInput): StrategyResult;
}

export const NONE: StrategyResult = { kind: 'none' };

/** A piece whose SEARCH lines map one to one onto consecutive file lines. */
export function straightPiece(at: number, search: string[], replace: string[]): Piece {
  return { start: at, end: at + search.length, search, replace, map: search.map((_, k) => at + k) };
}
