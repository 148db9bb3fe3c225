// Finds a run of lines in a file under a key (equal keys, equal lines) in time linear in the text.
import type { Line } from './lines';
import { straightPiece, type StrategyResult } from './strategy';

/**
 * Every line index where `search` occurs in `file` under `key`, overlapping hits included. Lines become numbers
 * (equal keys, equal numbers) and Knuth–Morris–Pratt finds the runs, so the time is linear in the text however
 * long or repetitive the SEARCH is (a naive scan of 20,000 equal lines is 20,000² comparisons).
 */
export function findAll(file: readonly Line[], search: readonly string[], key: (line: string) => string): number[] {
  if (search.length === 0) return [];
  const ids = new Map<string, number>();
  const want = search.map((s) => {
    const k = key(s);
    let id = ids.get(k);
    if (id === undefined) ids.set(k, (id = ids.size));
    return id;
  });
  const fail = new Int32Array(want.length);
  for (let i = 1, k = 0; i < want.length; i++) {
    while (k > 0 && want[i] !== want[k]) k = fail[k - 1]!;
    if (want[i] === want[k]) k++;
    fail[i] = k;
  }
  const hits: number[] = [];
  for (let i = 0, k = 0; i < file.length; i++) {
    const id = ids.get(key(file[i]!.text)) ?? -1;
    while (k > 0 && id !== want[k]) k = fail[k - 1]!;
    if (id === want[k]) k++;
    if (k === want.length) {
      hits.push(i - k + 1);
      k = fail[k - 1]!;
    }
  }
  return hits;
}

/** The one place `search` occurs under `key`, as a strategy's answer. */
export function findOnce(file: readonly Line[], search: string[], replace: string[], key: (line: string) => string): StrategyResult {
  const hits = findAll(file, search, key);
  if (hits.length > 1) return { kind: 'ambiguous', lines: hits.map((h) => h + 1) };
  if (hits.length === 0) return { kind: 'none' };
  return { kind: 'placed', pieces: [straightPiece(hits[0]!, search, replace)] };
}
