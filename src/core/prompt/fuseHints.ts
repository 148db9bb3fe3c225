// The spectrum's lines and the failure's words, merged by reciprocal-rank fusion (issue 40): each list's rank counts,
// not its raw score, so BM25's scale and Ochiai's need no common unit; a line both point to (a suspicious line inside
// the function the failure names) ranks above either alone. The result sits on the witness's scale: between a stack
// frame (90) and an import (50), the best at 85.
import type { CodeHint, LexicalHit } from '../../ports/codeContext';
import type { WitnessSummary } from '../../ports/runState';

const FUSED_BASE = 45;
const FUSED_SPAN = 40;
/** RRF's constant: small, so that the first few of each list stand apart (the lists here are short). */
const RRF_K = 10;
const MAX_COVERAGE_HINTS = 40;
/** Functions the words point to that become ranked lines: a name the failure says, else the best few matches. */
const MAX_WORD_UNITS = 3;
/** How much of the failures is read as the query. */
const MAX_QUERY_CHARS = 8000;

/** The failures' own words: test names, messages, assertion diffs and load errors. */
export function failureQuery(witness: WitnessSummary): string {
  const parts: string[] = [];
  for (const f of witness.failures) parts.push(f.id, f.message ?? '');
  for (const e of witness.loadErrors ?? []) parts.push(e.message);
  return parts.join('\n').slice(0, MAX_QUERY_CHARS);
}

/**
 * Coverage hints (suspiciousness 0..1) and word hits (0..1) as one ranked list of hints. Each list contributes
 * score / (k + rank); a coverage line inside a function the words point to gets that function's share too. Only the
 * most suspicious coverage lines are kept, so a library that runs most of its code at import does not fill the prompt.
 */
export function fuseHints(coverage: readonly CodeHint[], hits: readonly LexicalHit[]): CodeHint[] {
  const lines = [...coverage].sort((a, b) => b.score - a.score).slice(0, MAX_COVERAGE_HINTS);
  const units = pickUnits(hits);
  const lists = (lines.length ? 1 : 0) + (units.length ? 1 : 0);
  if (!lists) return [];
  const top = lists / (RRF_K + 1);
  const share = (score: number, rank: number) => Math.min(1, Math.max(0, score)) / (RRF_K + rank + 1);
  const unitShare = units.map((u, i) => share(u.score, i));
  const within = (h: CodeHint) => units.findIndex((u) => u.path === h.path && h.line !== undefined && h.line >= u.line && h.line <= u.endLine);
  const out: CodeHint[] = lines.map((h, i) => {
    const u = within(h);
    return { ...h, score: scaled((share(h.score, i) + (u >= 0 ? unitShare[u] : 0)) / top) };
  });
  units.forEach((u, i) => {
    const best = Math.max(0, ...lines.map((h, j) => (h.path === u.path && h.line! >= u.line && h.line! <= u.endLine ? share(h.score, j) : 0)));
    out.push({ path: u.path, line: u.line, score: scaled((unitShare[i] + best) / top), source: 'words' });
  });
  return out;
}

function pickUnits(hits: readonly LexicalHit[]): LexicalHit[] {
  const named = hits.filter((h) => h.named);
  return (named.length ? named : hits).slice(0, MAX_WORD_UNITS);
}

function scaled(fused: number): number {
  return FUSED_BASE + FUSED_SPAN * Math.min(1, fused);
}
