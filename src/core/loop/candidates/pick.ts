// Which candidate an attempt keeps: a fixed order over what the tests said, never a model's opinion. Pure, so the
// order is tested case by case and the report can say, for each loser, the first rule it lost by.
import type { CandidateVerdict } from '../../../ports/runState';

export interface Ranked {
  k: number;
  verdict: CandidateVerdict;
  failing: number | null;
  newlyFailing: number;
  findings: number;
  /** The normalized edit (whitespace and comments aside): equal keys vote together. Null: nothing applied. */
  agreeKey: string | null;
  diffLines: number;
}

export interface Pick {
  /** The chosen candidate's k; null when none was tested (all refused, repeated or missing). */
  chosen: number | null;
  /** k → votes (candidates with the same normalized edit, itself included). */
  votes: Map<number, number>;
  /** k → why it lost, for every candidate but the chosen one. */
  lostBecause: Map<number, string>;
}

const CLASS: Partial<Record<CandidateVerdict, number>> = { green: 0, progress: 1, 'no-progress': 2 };
const CLASS_WORDS: Record<number, string> = { 0: 'the failing tests pass', 1: 'some failing tests pass', 2: 'no failing test passes' };

type Rule = (a: Ranked & { votes: number }, b: Ranked & { votes: number }) => { diff: number; why: string };

/**
 * In order: green over progress over no progress; fewer failing tests; no newly failing test; fewer checker
 * findings; more candidates agreeing; the smaller edit; the earlier answer. Each rule only breaks the ties of the
 * ones before it. `why` is said of the loser `b` against the winner `a`.
 */
const RULES: Rule[] = [
  (a, b) => ({ diff: CLASS[a.verdict]! - CLASS[b.verdict]!, why: `${CLASS_WORDS[CLASS[b.verdict]!]}, after the one kept ${CLASS_WORDS[CLASS[a.verdict]!]}` }),
  (a, b) => ({ diff: (a.failing ?? 0) - (b.failing ?? 0), why: `more failing tests (${b.failing} against ${a.failing})` }),
  (a, b) => ({ diff: Number(a.newlyFailing > 0) - Number(b.newlyFailing > 0), why: `it breaks ${b.newlyFailing} test${b.newlyFailing === 1 ? '' : 's'} that passed` }),
  (a, b) => ({ diff: a.findings - b.findings, why: `more checker findings (${b.findings} against ${a.findings})` }),
  (a, b) => ({ diff: b.votes - a.votes, why: `fewer answers made the same edit (${b.votes} against ${a.votes})` }),
  (a, b) => ({ diff: a.diffLines - b.diffLines, why: `a larger edit (${b.diffLines} lines against ${a.diffLines})` }),
  (a, b) => ({ diff: a.k - b.k, why: `the same result as an earlier answer` }),
];

export function pickCandidate(all: readonly Ranked[]): Pick {
  const votes = new Map<number, number>();
  for (const c of all) votes.set(c.k, c.agreeKey === null ? 0 : all.filter((o) => o.agreeKey === c.agreeKey).length);
  const withVotes = all.map((c) => ({ ...c, votes: votes.get(c.k) ?? 0 }));
  const tested = withVotes.filter((c) => CLASS[c.verdict] !== undefined);
  const lostBecause = new Map<number, string>();
  if (tested.length === 0) {
    for (const c of all) lostBecause.set(c.k, notTested(c.verdict));
    return { chosen: null, votes, lostBecause };
  }
  const order = [...tested].sort((a, b) => {
    for (const rule of RULES) {
      const { diff } = rule(a, b);
      if (diff !== 0) return diff;
    }
    return 0;
  });
  const winner = order[0]!;
  for (const c of withVotes) {
    if (c.k === winner.k) continue;
    if (CLASS[c.verdict] === undefined) {
      lostBecause.set(c.k, notTested(c.verdict));
      continue;
    }
    const decided = RULES.map((rule) => rule(winner, c)).find((r) => r.diff !== 0);
    lostBecause.set(c.k, decided?.why ?? 'the same result as an earlier answer');
  }
  return { chosen: winner.k, votes, lostBecause };
}

function notTested(verdict: CandidateVerdict): string {
  if (verdict === 'refused') return 'it could not be applied';
  if (verdict === 'repeat') return 'it repeats a state already tried';
  return 'it did not arrive';
}
