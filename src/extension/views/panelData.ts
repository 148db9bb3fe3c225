// Turns a run (live or from history) into what the escalation panel shows. Pure: no vscode, no I/O.
import type { HistoryRecord } from '../../core/history';
import type { ChartPoint, ExtraBudgetInput, HypothesisItem, PanelData } from '../../shared/protocol';
import { MAX_EXTRA } from '../../shared/protocol';
import { explainStop } from './reasonText';
import { setupActionsFor } from '../../shared/setupActions';

export const DEFAULT_EXTRA_ATTEMPTS = 3;
const FALLBACK_TOKENS_PER_ATTEMPT = 20_000;
const FALLBACK_MINUTES_PER_ATTEMPT = 2;

/** What one of the chart's points counts: failing tests plus type errors, the same facts the verdicts compare. */
export function failingCount(failing: readonly string[], diagnostics: number): number {
  return failing.length + diagnostics;
}

export function chartPoints(record: HistoryRecord): ChartPoint[] {
  return [
    { n: 0, failing: failingCount(record.baselineFailing, record.baselineDiagnostics), verdict: 'baseline' },
    ...record.iterations.map((it) => ({ n: it.n, failing: failingCount(it.failing, it.diagnostics), verdict: it.verdict })),
  ];
}

export function hypotheses(record: HistoryRecord): HypothesisItem[] {
  return record.iterations.map((it) => ({
    n: it.n,
    verdict: it.verdict,
    failing: failingCount(it.failing, it.diagnostics),
    hypothesis: it.hypothesis.trim(),
    note: it.note,
  }));
}

/**
 * A retry's default budget: 3 more attempts at what an attempt has cost so far, rounded up, so the number shown is
 * one a person can judge rather than a magic constant.
 */
export function defaultExtraBudget(record: HistoryRecord): ExtraBudgetInput {
  const n = record.iterations.length;
  const tokens = record.tokens.prompt + record.tokens.completion;
  const perAttemptTokens = n > 0 && tokens > 0 ? tokens / n : FALLBACK_TOKENS_PER_ATTEMPT;
  const minutesUsed = record.finishedAt !== null ? (record.finishedAt - record.startedAt) / 60_000 : 0;
  const perAttemptMinutes = n > 0 && minutesUsed > 0 ? minutesUsed / n : FALLBACK_MINUTES_PER_ATTEMPT;
  return {
    iterations: DEFAULT_EXTRA_ATTEMPTS,
    tokens: Math.min(MAX_EXTRA.tokens, Math.ceil((perAttemptTokens * DEFAULT_EXTRA_ATTEMPTS) / 1000) * 1000),
    minutes: Math.min(MAX_EXTRA.minutes, Math.max(1, Math.ceil(perAttemptMinutes * DEFAULT_EXTRA_ATTEMPTS))),
  };
}

export function buildPanelData(record: HistoryRecord, folderName: string, bestDiff: string): PanelData {
  const why = explainStop(record.outcome, record.reason);
  return {
    runId: record.runId,
    folderName,
    outcome: record.outcome,
    running: record.outcome === 'running',
    reasonTitle: why.title,
    reasonSentence: why.sentence,
    advice: why.advice,
    reasonText: record.reasonText,
    finalState: record.finalState,
    startedAt: record.startedAt,
    baselineFailing: failingCount(record.baselineFailing, record.baselineDiagnostics),
    finalFailing: failingCount(record.finalFailing, record.finalDiagnostics),
    tokensUsed: record.tokens.prompt + record.tokens.completion,
    points: chartPoints(record),
    hypotheses: hypotheses(record),
    outputExcerpt: record.outputExcerpt,
    bestDiff,
    hints: record.hints,
    flaky: record.flaky ?? [],
    defaultExtra: defaultExtraBudget(record),
    // A model that cannot be reached, a test command that cannot run: what to open comes first, not a retry.
    setupActions: record.reason === 'actor-error' || (record.reason === 'verify-error' && record.iterations.length === 0)
      ? setupActionsFor(record.reason, record.reasonText)
      : [],
  };
}
