// What the GitHub writers read about one `greenloop fix` run: the contract's report, plus what the report leaves out
// (file and line of each failure, the budgets) when the run's state is at hand. Plain data, so the writers do not
// care how the run was assembled, and a report read back from a file is enough for every one of them.
import type { FixReport, SetupFailureReport } from '../core/run/report';
import type { RunLink } from './runPlace';

export type AnyReport = FixReport | SetupFailureReport;

export interface FailureDetail {
  id: string;
  /** Workspace-relative file when the runner names one. */
  file?: string;
  message: string;
}

export interface DiagnosticDetail {
  file: string;
  line: number;
  column: number;
  code: string;
  message: string;
}

export interface RunDetails {
  /** The failures and diagnostics of the state the workspace was left in. */
  failures: FailureDetail[];
  diagnostics: DiagnosticDetail[];
  loadErrors: Array<{ file: string; message: string }>;
  /** The budgets in force at the end (the config plus any grant). */
  limits?: { maxIterations: number; maxTokens: number; maxMinutes: number };
  /** Wall time of the run so far, resumes included. */
  elapsedMs?: number;
}

export interface PatchFacts {
  /** Where the binary-safe patch was written ('' when none could be made). */
  path: string;
  /** The same change as readable text (binary files named, not spelled out), for the summary. */
  text: string;
  files: number;
  added: number;
  removed: number;
  /** Why there is no patch, when there is none to write (not a git repository, no commit yet). */
  none?: string;
}

export interface RunFacts {
  report: AnyReport;
  details?: RunDetails;
  patch?: PatchFacts;
  reportPath: string;
  /** The run on GitHub, where its artifacts are: what the summary links instead of the runner's paths. */
  run?: RunLink;
}

export function isFullReport(report: AnyReport): report is FixReport {
  return report.baseline !== null;
}
