// Small HistoryRecords shaped like the engine writes them, for the views' tests.
import type { HistoryIteration, HistoryRecord } from '../../../../src/ports/history';

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
