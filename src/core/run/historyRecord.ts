// A finished run as its history record: what the history view lists and the cross-run guard compares.
import { createHash } from 'crypto';
import type { RunState } from '../../ports/runState';
import type { HistoryRecord } from '../../ports/history';

/** Same model and same budgets: repeating such a run on the same failures is unlikely to end differently. */
export function configHash(state: Pick<RunState, 'actorLabel' | 'config'>): string {
  const { maxIterations, maxTokens, maxMinutes, patience, allowTestEdits } = state.config;
  return sha(JSON.stringify([state.actorLabel, maxIterations, maxTokens, maxMinutes, patience, allowTestEdits])).slice(0, 16);
}

export function toHistoryRecord(state: RunState): HistoryRecord {
  return {
    runId: state.runId,
    cwd: state.cwd,
    actor: state.actorLabel,
    startedAt: state.startedAt - state.elapsedBeforeMs,
    finishedAt: state.finishedAt,
    outcome: state.outcome,
    reason: state.reason,
    reasonText: state.reasonText,
    finalState: state.finalState,
    configHash: configHash(state),
    baselineFailing: state.baseline.witness.failing,
    baselineLoadErrorFiles: state.baseline.witness.loadErrorFiles ?? [],
    baselineDiagnostics: state.baseline.witness.diagnostics.length,
    finalFailing: state.current.witness.failing,
    finalLoadErrorFiles: state.current.witness.loadErrorFiles ?? [],
    finalDiagnostics: state.current.witness.diagnostics.length,
    baselineSnapshot: state.baseline.snapshot,
    bestSnapshot: state.best.snapshot,
    iterations: state.iterations.map((it) => ({
      n: it.n, verdict: it.verdict, failing: it.failing, loadErrorFiles: it.loadErrorFiles ?? [], diagnostics: it.diagnostics, files: it.files, rolledBack: it.rolledBack,
      tokens: it.tokens, durationMs: it.durationMs, note: it.note, hypothesis: it.hypothesis,
      beforeSnapshot: it.beforeSnapshot, afterSnapshot: it.afterSnapshot, missing: it.missing ?? [], flaky: it.flaky ?? [],
      ...(it.agent ? { agent: { requests: it.agent.requests, gatewayAnswers: it.agent.gatewayAnswers, stoppedBy: it.agent.stoppedBy, exitCode: it.agent.exitCode } } : {}),
      ...(it.reverted?.length ? { reverted: it.reverted } : {}),
      ...(it.testsWrote ? { testsWrote: it.testsWrote } : {}),
      ...(it.outsideWarnings?.length ? { outsideWarnings: it.outsideWarnings } : {}),
      ...(it.castWarnings?.length ? { castWarnings: it.castWarnings } : {}),
      ...(it.actor ? { actor: it.actor, commands: it.commands ?? [] } : {}),
      ...(it.candidates?.length ? { candidates: it.candidates } : {}),
    })),
    tokens: { prompt: state.tokens.prompt, completion: state.tokens.completion },
    llmCalls: state.llmCalls,
    hints: state.hints,
    outputExcerpt: state.current.witness.outputExcerpt,
    flaky: state.flaky ?? [],
    ...(state.baseline.witness.unmeasured ? { unmeasured: true } : {}),
  };
}

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
