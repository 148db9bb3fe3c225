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

export type TestStatus = 'passed' | 'failed' | 'skipped';

/**
 * A test file the runner could not load (a syntax error, a missing import): none of its tests ran. Counted apart from
 * failing tests — it is not one — yet to the loop a file that stops loading is a regression like a test that breaks.
 */
export interface LoadErrorFile {
  /** As the runner names it: the test file; go: the package whose tests did not build; cargo: the crate and target. */
  file: string;
  /** What the runner said (the syntax error, the missing module), ANSI-free. */
  message: string;
}

/** One test the output names, however it ended (same ID rules as FailingTest). */
export interface ReportedTest {
  id: string;
  status: TestStatus;
}

/** What one parser makes of one runner output. Counts a runner does not print are null. */
export interface ParseResult {
  runner: RunnerFormat;
  failing: FailingTest[];
  /**
   * Every test the output names (passed, failed, skipped), or null when the format lists only failures
   * (go without -v, pytest -q, jest and vitest without a per-test listing): then only the counts say what ran.
   */
  tests: ReportedTest[] | null;
  passedCount: number | null;
  failedCount: number | null;
  skippedCount: number | null;
  /** The suite did not load (syntax error, missing module): never green. */
  loadError: boolean;
  /** The test files that did not load, where the runner names them (never listed in `failing` or `tests`). */
  loadErrors?: LoadErrorFile[];
  diagnostics: Diagnostic[];
  /**
   * Set when the runner stopped before running every test (fail-fast, -x, --bail, a panic that ended a test
   * binary): one sentence saying so and which flag shows every failure. Tests that did not run are unknown.
   */
  stoppedEarly?: string;
}

/** A parser takes ANSI-free text. detect() returns a confidence in [0,1] used by `auto`. */
export interface OutputParser {
  format: RunnerFormat;
  detect(text: string): number;
  parse(text: string): ParseResult;
  /** The same parser fed one line at a time, for outputs too large to hold (see parsers/lineParser.ts). */
  lines?(): import('./parsers/lineParser').LineParser;
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
  /** Sorted test files that did not load (contract: `loadErrorFiles`), where the runner names them; a subset of why loadError is set. */
  loadErrorFiles: string[];
  /** The same files with what the runner said about each. */
  loadErrors: LoadErrorFile[];
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  /** sha256 of the normalized output; equal for two runs of the same failing state. */
  signature: string;
  /** Counts from the runner, when it printed them. */
  passedCount: number | null;
  failedCount: number | null;
  skippedCount: number | null;
  /**
   * Sorted, normalized IDs of every test the runner reported (passed, failed or skipped); null when the runner
   * names only failures. A test in the baseline's list and absent here is "missing" (contract: Ran).
   */
  ran: string[] | null;
  /** IDs reported as skipped (a subset of `ran`); [] when unknown. */
  skipped: string[];
  /** Tests reported, by count: passed + failed + skipped, or null when the runner printed no counts. */
  ranCount: number | null;
  /** Sentences a person should read about this run (e.g. "the test command ran no tests"). */
  warnings: string[];
  /** No parser recognised the output: nothing is known about which tests ran, so it is never green. */
  unreadable: boolean;
  /** The runner stopped before running every test (see ParseResult.stoppedEarly). */
  stoppedEarly: string | null;
  /** Every test passed but the command still failed (a coverage threshold): what it said. Not a load error. */
  commandFailure: string | null;
  /** Normalized, trimmed output excerpt for prompts and the escalation panel. */
  outputExcerpt: string;
  /** Which parser read the output. */
  runner: RunnerFormat | null;
}
