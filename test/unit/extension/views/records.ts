// Small HistoryRecords shaped like the engine writes them, for the views' tests.
import type { HistoryIteration, HistoryRecord } from '../../../../src/ports/history';
import type { CandidateRecord } from '../../../../src/ports/runState';

/** One answer of an attempt that asked for several (`--candidates N`), as the engine records it. */
export function candidate(k: number, over: Partial<CandidateRecord> = {}): CandidateRecord {
  return {
    k, tokens: { prompt: 1000, completion: 150 }, files: ['src/cart.ts'], verdict: 'no-progress', failing: 2, newlyFailing: 0, findings: 0,
    diffLines: 4, votes: 1, chosen: false, lostBecause: 'another answer leaves fewer tests failing', note: 'the failing tests still fail',
    proposalHash: `p${k}`, snapshot: `run-1/${10 + k}`, ...over,
  };
}

export function iteration(n: number, over: Partial<HistoryIteration> = {}): HistoryIteration {
  return {
    n,
    verdict: 'progress',
    failing: [],
    diagnostics: 0,
    files: [],
    rolledBack: false,
    tokens: { prompt: 1000, completion: 200 },
    durationMs: 4200,
    note: '',
    hypothesis: '',
    beforeSnapshot: `snap-${n - 1}`,
    afterSnapshot: `snap-${n}`,
    ...over,
  };
}

export function record(over: Partial<HistoryRecord> = {}): HistoryRecord {
  return {
    runId: 'run-1',
    cwd: '/ws',
    actor: 'scripted',
    startedAt: new Date(2024, 4, 6, 14, 3).getTime(),
    finishedAt: new Date(2024, 4, 6, 14, 9).getTime(),
    outcome: 'escalated',
    reason: 'stagnation',
    reasonText: 'No progress in the last 2 attempts (patience 2).',
    finalState: 'best',
    configHash: 'abc',
    baselineFailing: ['Cart > total', 'Cart > tax', 'Cart > discount'],
    baselineDiagnostics: 0,
    finalFailing: ['Cart > tax'],
    finalDiagnostics: 0,
    baselineSnapshot: 'snap-0',
    bestSnapshot: 'snap-1',
    iterations: [],
    tokens: { prompt: 0, completion: 0 },
    llmCalls: 0,
    hints: [],
    outputExcerpt: '',
    ...over,
  };
}
