// Everything the engine knows about one run. Plain data: serializable, so a run can be resumed or inspected.
import type { TokenUsage } from './ports';
import type { Diagnostic, FailingTest } from '../verify/types';
import type { LoopConfig } from '../shared/config';

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
  green: boolean;
  signature: string;
  exitCode: number | null;
  timedOut: boolean;
  outputExcerpt: string;
}

export interface IterationRecord {
  n: number;
  startedAt: number;
  verdict: Verdict;
  /** Failing IDs after this iteration's edit (before any rollback). */
  failing: string[];
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
  best: StateRef;
  /** The workspace as the loop left it: best, or a later no-progress state. */
  current: { snapshot: string; tree: string; witness: WitnessSummary };
  iterations: IterationRecord[];
  seenTrees: string[];
  seenProposals: string[];
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
  finishedAt: number | null;
}
