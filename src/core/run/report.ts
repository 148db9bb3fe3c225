// The JSON report of `greenloop fix` exactly as ../shared/contract.md fixes it.
import type { CandidateRecord, ContextShown, OutsideWarning, RunState, TestRun } from '../../ports/runState';
import type { Redactor } from '../../base/redact';
import type { FixerCommand } from '../../ports/fixers';
import type { CoverageNote } from '../../ports/codeContext';

export interface FixReport {
  outcome: 'green' | 'escalated' | 'cancelled' | 'error';
  reason: string | null;
  reasonText: string;
  runId: string;
  /** loadErrorFiles: test files that did not load, counted apart from the failing tests (contract additions). */
  baseline: { failing: string[]; loadErrorFiles: string[]; diagnostics: number };
  final: { failing: string[]; loadErrorFiles: string[]; diagnostics: number; state: 'best' | 'baseline' | 'last' };
  iterations: {
    n: number; verdict: string; failing: string[]; loadErrorFiles: string[]; rolledBack: boolean; treeHash: string | null; proposalHash: string | null;
    tokens: { prompt: number; completion: number }; durationMs: number; note: string; hypothesis: string; files: string[];
    /** Tests the runner reported after the edit (null: it printed no count). */
    ran: number | null;
    missing: string[];
    flaky: string[];
    /** An agent CLI's attempt: its model requests (those sent on, those the gateway answered), why it ended, its exit code. */
    agent?: { requests: number; gatewayAnswers: number; stoppedBy: string | null; exitCode: number | null; exactTokens: boolean };
    /** Casts the edit added on a line with a diagnostic (`as any`, `cast(Any, …)`): kept, named for a person to check. */
    castWarnings?: string[];
    /** Files of an agent's attempt put back (protected or refused), the rest kept. */
    reverted?: Array<{ path: string; reason: string }>;
    /** Protected test files that changed while the tests ran, undone; what was written is kept in this snapshot. */
    testsWrote?: { snapshot: string; paths: string[] };
    /** Changes outside the snapshotted tree while the agent ran that Greenloop can neither undo nor attribute: left, warned of. */
    outsideWarnings?: OutsideWarning[];
    /** What judged the attempt: each test run, targeted (the failing tests only) or full (the whole suite), in order (contract addition). */
    testRuns?: TestRun[];
    /** Attempt 0 made by the project's own fixers, no model (contract addition, 2026-11-27). */
    actor?: 'autofix';
    /** The fixer commands it ran, with their time and, when one could not do its work, why. */
    commands?: FixerCommand[];
    /** The blocks of an applied answer by what placed them: `exact`, or the tolerance that did (contract addition, 2026-11-27). */
    matchedBy?: Record<string, number>;
    /** What the prompt's code context showed (contract addition, 2026-11-27). */
    context?: ContextShown;
    /** Every answer of an attempt that asked for several (`--candidates N`, issue 41 addition): the chosen one and why each other lost. */
    candidates?: CandidateRecord[];
  }[];
  /** Milliseconds spent running tests in the whole run: the baseline, every attempt's runs and re-runs (contract addition). */
  testMs?: number;
  /** Whether coverage of the failing tests ranked the code the prompt shows, or why it was skipped (issue 31 addition). */
  coverage?: CoverageNote;
  llmCalls: number;
  /** Model requests actually made, each retry included. */
  requests: number;
  tokens: { prompt: number; completion: number };
  /** Tests found flaky during the run. */
  flaky: string[];
  warnings: string[];
}

/** Through the run's redactor: the report goes to stdout and a file, and notes and hypotheses can carry secrets. */
export function toReport(state: RunState, redactor: Redactor): FixReport {
  return redactor.json<FixReport>({
    outcome: state.outcome === 'running' ? 'error' : state.outcome,
    reason: state.reason,
    reasonText: state.reasonText,
    runId: state.runId,
    baseline: { failing: state.baseline.witness.failing, loadErrorFiles: state.baseline.witness.loadErrorFiles ?? [], diagnostics: state.baseline.witness.diagnostics.length },
    final: { failing: state.current.witness.failing, loadErrorFiles: state.current.witness.loadErrorFiles ?? [], diagnostics: state.current.witness.diagnostics.length, state: state.finalState ?? 'last' },
    iterations: state.iterations.map((it) => ({
      n: it.n, verdict: it.verdict, failing: it.failing, loadErrorFiles: it.loadErrorFiles ?? [], rolledBack: it.rolledBack, treeHash: it.treeHash, proposalHash: it.proposalHash,
      tokens: { prompt: it.tokens.prompt, completion: it.tokens.completion }, durationMs: it.durationMs, note: it.note,
      hypothesis: it.hypothesis, files: it.files, ran: it.ran ?? null, missing: it.missing ?? [], flaky: it.flaky ?? [],
      ...(it.agent ? { agent: { requests: it.agent.requests, gatewayAnswers: it.agent.gatewayAnswers, stoppedBy: it.agent.stoppedBy, exitCode: it.agent.exitCode, exactTokens: it.agent.exactTokens } } : {}),
      ...(it.castWarnings?.length ? { castWarnings: it.castWarnings } : {}),
      ...(it.reverted?.length ? { reverted: it.reverted } : {}),
      ...(it.testsWrote ? { testsWrote: it.testsWrote } : {}),
      ...(it.outsideWarnings?.length ? { outsideWarnings: it.outsideWarnings } : {}),
      testRuns: it.testRuns ?? [],
      ...(it.actor ? { actor: it.actor, commands: it.commands ?? [] } : {}),
      ...(it.matchedBy ? { matchedBy: it.matchedBy } : {}),
      ...(it.context ? { context: it.context } : {}),
      // Snapshot ids are the store's, not the contract's: the report names none.
      ...(it.candidates ? { candidates: it.candidates.map(({ snapshot: _snapshot, ...c }) => c) } : {}),
    })),
    testMs: state.testMs ?? state.iterations.reduce((sum, it) => sum + (it.testRuns ?? []).reduce((s, r) => s + r.ms, 0), 0),
    ...(state.coverage ? { coverage: state.coverage } : {}),
    llmCalls: state.llmCalls,
    requests: state.requests ?? state.llmCalls,
    tokens: { prompt: state.tokens.prompt, completion: state.tokens.completion },
    flaky: state.flaky ?? [],
    warnings: state.warnings,
  });
}

/** The report of a run that could not start (bad flags or setup): nothing measured, nothing changed, one sentence why. */
export interface SetupFailureReport {
  outcome: 'error' | 'cancelled';
  reason: null;
  reasonText: string;
  baseline: null;
  final: null;
  iterations: [];
  llmCalls: 0;
  requests: 0;
  tokens: { prompt: 0; completion: 0 };
  warnings: [];
}

/** A Stop while the first test run was on: that run proves nothing, and nothing else happened yet. */
export const STOPPED_BEFORE_BASELINE = 'Stopped before the first test run finished; nothing was changed.';

export function setupFailureReport(sentence: string, outcome: 'error' | 'cancelled' = 'error'): SetupFailureReport {
  return { outcome, reason: null, reasonText: sentence, baseline: null, final: null, iterations: [], llmCalls: 0, requests: 0, tokens: { prompt: 0, completion: 0 }, warnings: [] };
}
