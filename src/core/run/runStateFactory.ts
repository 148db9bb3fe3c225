// A run's state from nothing (a new run), from disk (a run saved by an earlier version), and the witness summary
// the state keeps of each verified workspace.
import type { LoopConfig } from '../../shared/config';
import type { Witness } from '../../ports/verifier';
import type { Actor } from '../../ports/actor';
import type { RunState, StateRef, WitnessSummary } from '../../ports/runState';

export function newRunState(deps: { cwd: string; actor: Actor; config: LoopConfig }, runId: string, startedAt: number, base: StateRef): RunState {
  return {
    runId,
    cwd: deps.cwd,
    actorLabel: deps.actor.label,
    startedAt,
    elapsedBeforeMs: 0,
    config: deps.config,
    limits: { maxIterations: deps.config.maxIterations, maxTokens: deps.config.maxTokens, maxMinutes: deps.config.maxMinutes },
    grants: [],
    baseline: base,
    floor: base,
    best: base,
    current: { snapshot: base.snapshot, tree: base.tree, witness: base.witness },
    iterations: [],
    kept: [],
    rejected: [],
    artifacts: [],
    seenProposals: [],
    flaky: [],
    consecutiveNoProgress: 0,
    tokens: { prompt: 0, completion: 0 },
    llmCalls: 0,
    requests: 0,
    outcome: 'running',
    reason: null,
    reasonText: '',
    finalState: null,
    feedback: '',
    hints: [],
    warnings: [],
    finishedAt: null,
  };
}

/** Runs saved by an earlier version lack the fields newer checks need; they start empty (never a false cycle). */
export function upgradeSavedState(state: RunState): void {
  state.floor ??= state.baseline;
  state.kept ??= [];
  state.rejected ??= [];
  state.artifacts ??= [];
  state.flaky ??= [];
  state.requests ??= state.llmCalls;
  state.seenProposals ??= [];
}

/** A witness for a baseline that could not be verified: nothing known, never green. */
export const UNVERIFIED: WitnessSummary = {
  failing: [], failures: [], diagnostics: [], loadError: true, loadErrorFiles: [], loadErrors: [], green: false, signature: '', exitCode: null, timedOut: false,
  outputExcerpt: '', ran: null, skipped: [], ranCount: null, executed: null, warnings: [], unmeasured: true,
};

export function summarize(w: Witness): WitnessSummary {
  const executed = w.passedCount !== null ? w.passedCount + (w.failedCount ?? 0) : w.ran ? w.ran.length - w.skipped.length : null;
  return {
    failing: w.failing, failures: w.failures, diagnostics: w.diagnostics, loadError: w.loadError, loadErrorFiles: w.loadErrorFiles, loadErrors: w.loadErrors, green: w.green,
    signature: w.signature, exitCode: w.exitCode, timedOut: w.timedOut, outputExcerpt: w.outputExcerpt,
    ran: w.ran, skipped: w.skipped, ranCount: w.ranCount, executed, warnings: w.warnings, unreadable: w.unreadable,
    stoppedEarly: w.stoppedEarly, commandFailure: w.commandFailure,
    ...(w.checked ? { checked: w.checked } : {}), ...(w.checkedCounts ? { checkedCounts: w.checkedCounts } : {}),
    ...(w.checkers ? { checkers: w.checkers } : {}),
    ...(w.checkFailures?.length ? { checkFailures: w.checkFailures } : {}),
    ...(w.scope === 'targeted' ? { scope: 'targeted' as const } : {}),
  };
}

/** Why the unchanged workspace cannot be the start of a loop, or null when it can. */
export function baselineProblem(w: Witness, timeoutS: number): string | null {
  if (w.timedOut) return `The test command did not finish within ${timeoutS} s on the unchanged workspace; raise the verifier timeout or fix the hang first.`;
  const noTests = w.warnings.find((m) => /ran no tests/.test(m));
  if (!w.loadError && noTests) return `${noTests} Nothing to fix against.`;
  if (w.checkFailures?.length) return `${w.checkFailures[0]} Nothing to compare attempts against.`;
  if (w.unreadable) return `${w.warnings.find((m) => /not a test report|names none/.test(m)) ?? 'The test output cannot be read.'} Nothing to compare attempts against.`;
  return null;
}
