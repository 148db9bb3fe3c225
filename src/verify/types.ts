// The verifier's vocabulary: what a runner's output is reduced to (see ../shared/contract.md, "Witness").

export type RunnerFormat =
  | 'mocha' | 'jest' | 'vitest' | 'node' | 'tap' | 'pytest' | 'go' | 'cargo' | 'junit' | 'tsc';

export type FormatOption = RunnerFormat | 'auto';

export interface FailingTest {
  /** Full title path joined with " > " (per-runner rules in the contract). */
  id: string;
  /** Workspace-relative file when the runner names one. */
  file?: string;
  /** Assertion or error message, possibly multi-line, ANSI-free. */
  message: string;
}

export interface Diagnostic {
  file: string;
  line: number;
  column: number;
  /** e.g. "TS2322" */
  code: string;
  message: string;
}

/** What one parser makes of one runner output. Counts a runner does not print are null. */
export interface ParseResult {
  runner: RunnerFormat;
  failing: FailingTest[];
  passedCount: number | null;
  failedCount: number | null;
  skippedCount: number | null;
  /** The suite did not load (syntax error, missing module): never green. */
  loadError: boolean;
  diagnostics: Diagnostic[];
}

/** A parser takes ANSI-free text. detect() returns a confidence in [0,1] used by `auto`. */
export interface OutputParser {
  format: RunnerFormat;
  detect(text: string): number;
  parse(text: string): ParseResult;
}

/** The verifier's whole verdict on one workspace state. */
export interface Witness {
  green: boolean;
  /** Sorted, de-duplicated failing test IDs. */
  failing: string[];
  /** Failing tests with messages (same order as `failing`). */
  failures: FailingTest[];
  diagnostics: Diagnostic[];
  loadError: boolean;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  /** sha256 of the normalized output; equal for two runs of the same failing state. */
  signature: string;
  /** Counts from the runner, when it printed them. */
  passedCount: number | null;
  skippedCount: number | null;
  /** Normalized, trimmed output excerpt for prompts and the escalation panel. */
  outputExcerpt: string;
  /** Which parser read the output. */
  runner: RunnerFormat | null;
}
