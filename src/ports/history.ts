// The run history's port: one record per finished run, as the history view and the cross-run guard read it. The core
// produces records (core/run/historyRecord.ts); a store writes them.
import type { FixerCommand } from './fixers';
import type { CandidateRecord, OutsideWarning } from './runState';
import type { AgentCounts } from '../shared/plainWords';

export interface HistoryIteration {
  n: number;
  verdict: string;
  failing: string[];
  /** Test files that did not load after this attempt, counted apart from the failing tests. */
  loadErrorFiles?: string[];
  diagnostics: number;
  files: string[];
  rolledBack: boolean;
  tokens: { prompt: number; completion: number };
  durationMs: number;
  note: string;
  hypothesis: string;
  beforeSnapshot: string;
  afterSnapshot: string | null;
  /** Tests that ran before this attempt's edit and not after it. */
  missing?: string[];
  /** Tests that failed and then passed on a re-run of this attempt's files. */
  flaky?: string[];
  /** An agent CLI's attempt in numbers; its transcript stays in the saved run, to keep the history small. */
  agent?: AgentCounts;
  /** Files of the agent's attempt put back because it may not change them. */
  reverted?: Array<{ path: string; reason: string }>;
  /** Protected test files that changed while the tests ran, undone; what was written is kept in `snapshot`. */
  testsWrote?: { snapshot: string; paths: string[] };
  /** Changes outside the snapshotted tree while the agent ran that Greenloop could neither undo nor attribute. */
  outsideWarnings?: OutsideWarning[];
  /** Casts the edit added on a line with a diagnostic (`as any`, `cast(Any, …)`), each a sentence naming file, line and cast. */
  castWarnings?: string[];
  /** Attempt 0 made by the project's own fixers (no model), and the commands they ran. */
  actor?: 'autofix';
  commands?: FixerCommand[];
  /** Every answer of an attempt that asked for several (`--candidates N`): verdicts, why each lost, each one's snapshot. */
  candidates?: CandidateRecord[];
}

export interface HistoryRecord {
  runId: string;
  cwd: string;
  actor: string;
  startedAt: number;
  finishedAt: number | null;
  outcome: string;
  reason: string | null;
  reasonText: string;
  finalState: string | null;
  configHash: string;
  baselineFailing: string[];
  /** Test files that did not load, counted apart (absent in older records, which listed them among the failing). */
  baselineLoadErrorFiles?: string[];
  baselineDiagnostics: number;
  finalFailing: string[];
  finalLoadErrorFiles?: string[];
  finalDiagnostics: number;
  baselineSnapshot: string;
  bestSnapshot: string;
  iterations: HistoryIteration[];
  tokens: { prompt: number; completion: number };
  llmCalls: number;
  hints: string[];
  outputExcerpt: string;
  /** Tests found flaky during the run. */
  flaky?: string[];
  /** The run stopped before its first usable test run: its counts are no measurement and are never shown. */
  unmeasured?: boolean;
}

export interface HistoryStore {
  append(record: HistoryRecord): Promise<void>;
  list(): Promise<{ records: HistoryRecord[]; warnings: string[] }>;
  clear(): Promise<void>;
}
