// Spectrum-based fault localization: a line executed by every failing run and by few passing ones is the likeliest
// place of the bug. Ochiai's formula (ef / sqrt(F · (ef + ep))) ranks best among the usual ones in the studies
// AutoCodeRover and GZoltar build on; with no passing run at hand it degrades to "executed by the failing runs".
import type { CodeHint } from '../../ports/codeContext';
import type { CoverageUnit } from '../../runners/runner';

export interface Ranked {
  hints: CodeHint[];
  ranking: 'ochiai' | 'executed';
  units: { failing: number; passing: number };
}

/**
 * Without a passing run every executed line scores the same, so the scores are halved: "executed by the failing
 * tests" says less than a stack frame naming the line, which comes first (scores compare across hint sources).
 */
export const EXECUTED_ONLY_WEIGHT = 0.5;

/**
 * Also without a passing run, a line a failing unit ran only once — most often when its module was imported — ranks
 * below one it ran again and again: a library that runs most of its code at import (mathjs: 19,222 of 20,104 lines
 * run once for one test file) would otherwise bury the line the test exercised among them.
 */
export const RAN_ONCE_WEIGHT = 0.8;

/** Lines a failing unit executed, most suspicious first (ties: by path, then line), at most `limit` of them. */
export function rankBySpectrum(units: readonly CoverageUnit[], limit = 1000): Ranked {
  const failing = units.filter((u) => u.failed);
  const passing = units.filter((u) => !u.failed);
  const counts = new Map<string, { path: string; line: number; ef: number; ep: number }>();
  const count = (u: CoverageUnit, key: 'ef' | 'ep', onlyKnown: boolean): void => {
    for (const [path, lines] of u.lines) {
      for (const line of lines) {
        const id = `${path}\n${line}`;
        let c = counts.get(id);
        if (!c) {
          if (onlyKnown) continue;
          c = { path, line, ef: 0, ep: 0 };
          counts.set(id, c);
        }
        c[key]++;
      }
    }
  };
  for (const u of failing) count(u, 'ef', false);
  // A line only passing runs executed scores 0: it is never a hint.
  for (const u of passing) count(u, 'ep', true);
  const ranking = passing.length > 0 ? 'ochiai' : 'executed';
  const weight = ranking === 'ochiai' ? 1 : EXECUTED_ONLY_WEIGHT;
  const counted = ranking === 'executed' && failing.some((u) => u.repeated);
  const again = (c: { path: string; line: number }): boolean => failing.some((u) => u.repeated?.get(c.path)?.has(c.line));
  const hints: CodeHint[] = [...counts.values()]
    .map((c) => ({ path: c.path, line: c.line, score: weight * ochiai(c.ef, c.ep, failing.length) * (counted && !again(c) ? RAN_ONCE_WEIGHT : 1), source: 'coverage' as const }))
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line! - b.line!));
  return { hints: hints.slice(0, limit), ranking, units: { failing: failing.length, passing: passing.length } };
}

export function ochiai(ef: number, ep: number, totalFailed: number): number {
  return ef === 0 || totalFailed === 0 ? 0 : ef / Math.sqrt(totalFailed * (ef + ep));
}
