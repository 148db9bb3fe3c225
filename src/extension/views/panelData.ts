// Turns a run (live or from history) into what the escalation panel shows. Pure: no vscode, no I/O.
import type { FixerCommand } from '../../ports/fixers';
import type { HistoryRecord } from '../../ports/history';
import type { CandidatesOfAttempt, CastWarningItem, ChangedFile, ChartPoint, ExtraBudgetInput, HypothesisItem, PanelActions, PanelData } from '../../shared/protocol';
import { agentCountsText, candidateWords, countsText, NO_TEST_COUNT, verdictWords, workspaceAtText } from '../../shared/plainWords';
import { candidatesText } from '../../session/progressLine';
import { MAX_EXTRA } from '../../shared/protocol';
import { explainStop } from './reasonText';
import { setupActionsFor } from '../../shared/setupActions';

export const DEFAULT_EXTRA_ATTEMPTS = 3;
const FALLBACK_TOKENS_PER_ATTEMPT = 20_000;
const FALLBACK_MINUTES_PER_ATTEMPT = 2;

/** What one of the chart's points counts: failing tests plus type errors (test files that did not load are said apart, in words). */
export function failingCount(failing: readonly string[], diagnostics: number): number {
  return failing.length + diagnostics;
}

export function chartPoints(record: HistoryRecord): ChartPoint[] {
  // No point for a count the tests never gave: a 0 there would draw a green start.
  if (record.unmeasured) return [];
  return [
    { n: 0, failing: failingCount(record.baselineFailing, record.baselineDiagnostics), verdict: 'baseline' },
    ...record.iterations.map((it) => ({ n: it.n, failing: failingCount(it.failing, it.diagnostics), verdict: it.verdict })),
  ];
}

export function hypotheses(record: HistoryRecord): HypothesisItem[] {
  return record.iterations.map((it) => ({
    n: it.n,
    verdict: it.verdict,
    verdictText: verdictWords(it.verdict),
    failing: failingCount(it.failing, it.diagnostics),
    countsText: countsText(it.failing.length, it.diagnostics, it.loadErrorFiles?.length),
    hypothesis: it.hypothesis.trim(),
    note: it.note,
    ...(it.agent ? { agentText: `Agent: ${agentCountsText(it.agent)}` } : {}),
    ...(it.actor === 'autofix' ? { fixersText: fixersText(it.commands ?? []) } : {}),
    ...(it.reverted?.length ? { reverted: it.reverted.map((r) => `${r.path} — ${r.reason}`) } : {}),
    ...(it.outsideWarnings?.length ? { outsideWarnings: it.outsideWarnings.map((w) => `${w.where} ${w.what} — ${w.why}`) } : {}),
    ...(it.castWarnings?.length ? { castWarnings: it.castWarnings } : {}),
  }));
}

/** What the project's own fixers ran before the first model call, with their time. */
function fixersText(commands: readonly FixerCommand[]): string {
  const ran = commands.map((c) => `${c.command} (${(c.ms / 1000).toFixed(1)} s)${c.problem ? ` — ${c.problem}` : ''}`);
  return `The project's own fixers ran before the first model call (no tokens): ${ran.join('; ') || 'none could run'}.`;
}

/**
 * The casts the workspace still holds: those of attempts whose edit was kept, up to the best state when the workspace
 * was put back there. At the baseline none of the run's edits is in the files.
 */
export function standingCasts(record: HistoryRecord): CastWarningItem[] {
  if (record.finalState === 'baseline') return [];
  const best = record.finalState === 'best' ? record.iterations.find((it) => it.afterSnapshot === record.bestSnapshot)?.n ?? 0 : Infinity;
  return record.iterations.filter((it) => !it.rolledBack && it.n <= best).flatMap((it) => (it.castWarnings ?? []).map((text) => ({ n: it.n, text })));
}

/**
 * The answers of the last attempt that asked for several (`--candidates N`): what a retry's hint can steer away from
 * is what they all tried, and why each one lost.
 */
export function lastCandidates(record: HistoryRecord): CandidatesOfAttempt | undefined {
  const it = [...record.iterations].reverse().find((i) => i.candidates?.length);
  if (!it?.candidates) return undefined;
  return {
    n: it.n,
    summary: candidatesText(it.candidates),
    items: it.candidates.map((c) => {
      const tokens = `${(c.tokens.prompt + c.tokens.completion).toLocaleString('en-US')} tokens`;
      const failing = c.failing === null ? null : `${c.failing} failing${c.newlyFailing ? ` (${c.newlyFailing} newly)` : ''}`;
      return {
        k: c.k, chosen: c.chosen, verdict: c.verdict, verdictText: candidateWords(c.verdict), detail: [failing, tokens].filter(Boolean).join(' · '),
        files: c.files, note: c.note, ...(c.lostBecause !== undefined && !c.chosen ? { lostBecause: c.lostBecause } : {}),
      };
    }),
  };
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

/**
 * What can be done with the run as its state is now: nothing while it runs; Retry unless it is green; a roll back
 * only to a state the workspace is not already at; Accept unless already accepted.
 */
export function panelActions(record: HistoryRecord): PanelActions {
  if (record.outcome === 'running') return { retry: false, rollbackBest: false, rollbackBaseline: false, accept: false };
  const same = record.baselineSnapshot === record.bestSnapshot;
  const at = record.finalState;
  return {
    retry: record.outcome !== 'green',
    rollbackBest: at !== 'best' && !(same && at === 'baseline'),
    rollbackBaseline: at !== 'baseline' && !(same && at === 'best'),
    accept: at !== 'last',
  };
}

/** Where the workspace is now, with its counts; the panel's status line and the tree say the same. */
export function workspaceLine(record: HistoryRecord): string {
  if (record.unmeasured) return 'No edit was made, and the tests gave no count.';
  const now = countsText(record.finalFailing.length, record.finalDiagnostics, record.finalLoadErrorFiles?.length);
  if (record.outcome === 'running') return `Running: ${now} so far.`;
  const at = record.iterations.length ? workspaceAtText(record.finalState) : null;
  return at ? `Workspace at ${at}: ${now}.` : `No edit was made: ${now}.`;
}

export function buildPanelData(record: HistoryRecord, folderName: string, changedFiles: ChangedFile[]): PanelData {
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
    workspaceText: workspaceLine(record),
    startedAt: record.startedAt,
    baselineFailing: failingCount(record.baselineFailing, record.baselineDiagnostics),
    finalFailing: failingCount(record.finalFailing, record.finalDiagnostics),
    baselineText: record.unmeasured ? NO_TEST_COUNT : countsText(record.baselineFailing.length, record.baselineDiagnostics, record.baselineLoadErrorFiles?.length),
    finalText: record.unmeasured ? NO_TEST_COUNT : countsText(record.finalFailing.length, record.finalDiagnostics, record.finalLoadErrorFiles?.length),
    countsText: record.unmeasured ? NO_TEST_COUNT : `${countsText(record.baselineFailing.length, record.baselineDiagnostics, record.baselineLoadErrorFiles?.length)} → ${countsText(record.finalFailing.length, record.finalDiagnostics, record.finalLoadErrorFiles?.length)}`,
    // Files that did not load are listed after the tests, said to be files: none of their tests ran.
    failingTests: [...record.finalFailing, ...(record.finalLoadErrorFiles ?? []).map((f) => `${f} (did not load)`)],
    tokensUsed: record.tokens.prompt + record.tokens.completion,
    points: chartPoints(record),
    hypotheses: hypotheses(record),
    outputExcerpt: record.outputExcerpt,
    changedFiles,
    actions: panelActions(record),
    hints: record.hints,
    flaky: record.flaky ?? [],
    castWarnings: standingCasts(record),
    ...(lastCandidates(record) ? { candidates: lastCandidates(record) } : {}),
    defaultExtra: defaultExtraBudget(record),
    // A model that cannot be reached, a test command that cannot run: what to open comes first, not a retry.
    setupActions: record.reason === 'actor-error' || (record.reason === 'verify-error' && record.iterations.length === 0)
      ? setupActionsFor(record.reason, record.reasonText)
      : [],
  };
}
