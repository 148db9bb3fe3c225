// Everything the engine knows about one run. Plain data: serializable, so a run can be resumed or inspected.
import type { TokenUsage, AgentAttempt } from './actor';
import type { CheckerIdentity, Diagnostic, FailingTest, LoadErrorFile } from './verifier';
import type { LoopConfig } from '../shared/config';
import type { FixerCommand } from './fixers';
import type { CodeHint, CoverageNote } from './codeContext';

export type Verdict = 'green' | 'progress' | 'no-progress' | 'regression' | 'invalid-proposal';

export type EscalationReason =
  | 'stagnation' | 'cycle' | 'repeated-proposal'
  | 'budget-iterations' | 'budget-tokens' | 'budget-time'
  | 'actor-error' | 'verify-error' | 'user-edit';

export type Outcome = 'running' | 'green' | 'escalated' | 'cancelled' | 'error';
export type FinalState = 'best' | 'baseline' | 'last';

/** The parts of a Witness the engine keeps per state (no raw output beyond an excerpt). */
export interface WitnessSummary {
  failing: string[];
  failures: FailingTest[];
  diagnostics: Diagnostic[];
  loadError: boolean;
  /** Test files that did not load, counted apart from `failing` (absent in runs saved by older versions, which listed them there). */
  loadErrorFiles?: string[];
  /** The same files with what the runner said about each. */
  loadErrors?: LoadErrorFile[];
  green: boolean;
  signature: string;
  exitCode: number | null;
  timedOut: boolean;
  outputExcerpt: string;
  /** Tests the runner reported (IDs), null when it names only failures. Absent in runs saved by older versions. */
  ran?: string[] | null;
  /** Reported as skipped (a subset of ran). */
  skipped?: string[];
  /** passed + failed + skipped by the runner's counts. */
  ranCount?: number | null;
  /** passed + failed: tests that really executed. */
  executed?: number | null;
  warnings?: string[];
  /** The output named no test in a format the verifier reads. */
  unreadable?: boolean;
  /** The runner stopped before every test ran: why, and the flag that shows every failure. */
  stoppedEarly?: string | null;
  /** Every test passed but the command failed: what it said. */
  commandFailure?: string | null;
  /**
   * The first test run did not run or could not be used (a model that cannot be reached, a command that cannot run,
   * a hang, no test found): the counts above are no measurement and no surface may show them as one.
   */
  unmeasured?: boolean;
  /** The files each checker checked, by source (Witness.checked); absent in runs saved before checkers. */
  checked?: Record<string, string[]>;
  /** Files checked by count, by source (Witness.checkedCounts). */
  checkedCounts?: Record<string, number>;
  /** What each checker is, by the same keys (Witness.checkers). */
  checkers?: Record<string, CheckerIdentity>;
  /** Checkers that could not say (Witness.checkFailures). */
  checkFailures?: string[];
  /** Only the tests failing in the best state ran (no checker): says nothing about any other test. Absent: the whole suite. */
  scope?: 'targeted';
}

/** One test run of an attempt: the failing tests only, or the whole suite; how many tests it reported; how long it took. */
export interface TestRun {
  scope: 'targeted' | 'full';
  tests: number;
  ms: number;
  /** A targeted run: the narrowed command it ran. */
  command?: string;
}

export interface IterationRecord {
  n: number;
  startedAt: number;
  verdict: Verdict;
  /** Failing IDs after this iteration's edit (before any rollback). */
  failing: string[];
  /** Test files that did not load after this edit, counted apart from `failing`. */
  loadErrorFiles?: string[];
  diagnostics: number;
  rolledBack: boolean;
  /** Workspace tree after applying; null when nothing was applied. */
  treeHash: string | null;
  proposalHash: string | null;
  files: string[];
  tokens: TokenUsage;
  durationMs: number;
  note: string;
  /** The model's own explanation of what it tried, stored for history; it never decides anything. */
  hypothesis: string;
  /** Snapshots before and after the edit, for diffs in history. */
  beforeSnapshot: string;
  afterSnapshot: string | null;
  witness: WitnessSummary | null;
  /** Tests the runner reported after this edit (contract: ran), when known. */
  ran?: number | null;
  /** Tests reported in the best state and no longer reported after this edit. */
  missing?: string[];
  /** Tests that both failed and passed on the same files in this attempt's re-runs. */
  flaky?: string[];
  /** Model requests this attempt made (retries included). */
  requests?: number;
  /** What the model asked to READ in this attempt (`path` or `path#symbol`), served or refused, in order. */
  reads?: string[];
  /** Git-ignored files the agent changed in this attempt (they cannot be rolled back). */
  unrecorded?: string[];
  /**
   * Changes outside the snapshotted tree while the agent ran that Greenloop can neither undo nor attribute (next to
   * the workspace, dependencies, ignored files too big to save): left as they are, named as warnings.
   */
  outsideWarnings?: OutsideWarning[];
  /** An agent CLI's attempt as its gateway and output tell it: requests, why it ended, its transcript. */
  agent?: AgentAttempt;
  /**
   * Casts the edit added on a line with a diagnostic (`as any`, `cast(Any, …)`): not refused, since a cast can be
   * right, but named for the person to check that it does not just hide the error.
   */
  castWarnings?: string[];
  /** Files of an agent's attempt put back because it may not change them (the rest of the attempt was kept). */
  reverted?: Array<{ path: string; reason: string }>;
  /** Protected test files that changed while the tests ran, undone; what was written is kept in `snapshot`. */
  testsWrote?: { snapshot: string; paths: string[] };
  /** Every test run this attempt made, in order (targeted first, the whole suite, re-runs). Absent in older runs. */
  testRuns?: TestRun[];
  /** The blocks of an applied answer by what placed them: `exact`, or the tolerance that did (contract additions, 2026-11-27). */
  matchedBy?: Record<string, number>;
  /** Judged by its targeted run alone: never best, never green; a regression it hides is found by a later whole run. */
  judgedBy?: 'targeted';
  /** Who made the edit when no model did: the project's own fixers (attempt 0, no tokens, not counted as an attempt). */
  actor?: 'autofix';
  /** The fixer commands an autofix attempt ran, with their time. */
  commands?: FixerCommand[];
  /** What the prompt's code context showed (contract addition, issue 31); absent for agents' checks and older runs. */
  context?: ContextShown;
  /** Every answer of an attempt that asked for several (`--candidates N`), in the order they were asked (issue 41). */
  candidates?: CandidateRecord[];
}

/**
 * How one candidate fared when tried: `refused` cannot apply (unusable, a protected file, …), `repeat` returns to a
 * state rolled back before or is an earlier candidate's edit, `missing` never arrived (a budget ended it, or its
 * request failed); the others are what the failing tests (or the whole suite, when they cannot be run alone) said.
 */
export type CandidateVerdict = 'green' | 'progress' | 'no-progress' | 'refused' | 'repeat' | 'missing';

export interface CandidateRecord {
  /** 1-based, in the order the answers were asked for. */
  k: number;
  tokens: TokenUsage;
  files: string[];
  verdict: CandidateVerdict;
  /** Failing tests after it, as its trial saw them (null: not tested). */
  failing: number | null;
  /** Tests failing after it that did not fail in the best state. */
  newlyFailing: number;
  /** Checker findings (diagnostics) after it. */
  findings: number;
  /** Lines its edit adds and removes. */
  diffLines: number;
  /** Candidates whose edit is the same as its own, whitespace and comments aside (itself included). */
  votes: number;
  chosen: boolean;
  /** Why another was kept instead; absent for the chosen one. */
  lostBecause?: string;
  /** What happened to it, in words (why refused, which state it repeats). */
  note: string;
  proposalHash: string | null;
  /**
   * The state it left (its edit applied, before the rollback), so a person can see its diff against the attempt's
   * start; absent when it was never applied (refused, missing). Kept out of the report, like every snapshot id.
   */
  snapshot?: string;
}

/** The code context of an attempt's prompt: regions and files shown, its tokens, the files left out for the budget. */
export interface ContextShown {
  regions: number;
  files: number;
  tokens: number;
  left: string[];
}

/** One change outside the snapshotted tree left as it is: where, what happened, why Greenloop could not undo it. */
export interface OutsideWarning {
  where: string;
  what: string;
  why: string;
}

/** A workspace state the loop has verified, by identity (its files without the verifier's own artifacts). */
export interface KnownState {
  identity: string;
  snapshot: string;
  /** Iteration that produced it; 0 is the baseline (or the state a resumed run started from). */
  iteration: number;
}

export interface StateRef {
  snapshot: string;
  tree: string;
  witness: WitnessSummary;
  /** Iteration that produced it; 0 is the baseline. */
  iteration: number;
}

export interface BudgetGrant {
  at: number;
  iterations: number;
  tokens: number;
  minutes: number;
  hint: string;
}

export interface RunState {
  runId: string;
  cwd: string;
  actorLabel: string;
  startedAt: number;
  /** Time spent in earlier sessions of this run (resume keeps counting wall clock). */
  elapsedBeforeMs: number;
  config: LoopConfig;
  /** Budgets in force: the config plus every explicit grant. */
  limits: { maxIterations: number; maxTokens: number; maxMinutes: number };
  grants: BudgetGrant[];
  baseline: StateRef;
  /**
   * The state the loop may never leave the workspace worse than: the baseline, or the workspace as the person left
   * it when a run was resumed. A give-up restores it instead of the baseline, so a person's edits survive.
   */
  floor: StateRef;
  best: StateRef;
  /** The workspace as the loop left it: best, or a later no-progress state. */
  current: { snapshot: string; tree: string; witness: WitnessSummary };
  iterations: IterationRecord[];
  /** States the loop kept (baseline, progress, no progress): returning to one is a cycle. */
  kept: KnownState[];
  /** States rolled back as regressions: reaching one again is the same edit again. */
  rejected: KnownState[];
  /** Paths the test command itself writes (reports, caches): left out of a state's identity. */
  artifacts: string[];
  seenProposals: string[];
  /** Tests found flaky in this run: neither progress nor regression from then on. */
  flaky: string[];
  /** Model requests made (each retry is one), next to llmCalls (attempts that asked the actor). */
  requests: number;
  /** Signatures of agent CLI failures seen in this run: the same one twice stops the run. */
  agentFailures?: string[];
  /** Files the snapshots do not record that an agent changed: no restore can undo them. */
  unrecordedChanged?: string[];
  /** Files the attempt in progress wrote (the loop's own, for a rollback), until it is recorded. */
  inFlight?: string[];
  /**
   * Where the failing tests point, for the prompt's code context (issue 31): here the lines the baseline's failing tests
   * executed (source 'coverage', score: suspiciousness). Absent: none measured.
   */
  codeHints?: CodeHint[];
  /** Whether coverage of the failing tests was used, and why not (the report's `coverage`). */
  coverage?: CoverageNote;
  consecutiveNoProgress: number;
  tokens: TokenUsage;
  llmCalls: number;
  outcome: Outcome;
  reason: EscalationReason | null;
  /** A sentence a person reads: why the loop stopped. */
  reasonText: string;
  finalState: FinalState | null;
  /** What the next prompt must say about the last attempt. */
  feedback: string;
  hints: string[];
  warnings: string[];
  /** Milliseconds spent in test runs (baseline, attempts, re-runs, the final check); absent in older runs. */
  testMs?: number;
  /** What the cross-run guard said about earlier runs on the same failures (also in the first prompt). */
  crossRun?: string;
  finishedAt: number | null;
}
