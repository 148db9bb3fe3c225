// The parsers' vocabulary: what one parser makes of one runner output. The witness and the types it shares with the
// loop are the verifier port's (../ports/verifier.ts; see ../shared/contract.md, "Witness").
import type { Diagnostic, FailingTest, LoadErrorFile, ReportedTest, RunnerFormat } from '../ports/verifier';

export type FormatOption = RunnerFormat | 'auto';

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
   * IDs the output gave to more than one reported test (two tests of one title, a test reported twice), with how
   * many times each: the lists above hold each ID once, so the verifier warns instead of merging them in silence.
   */
  sharedIds?: Array<{ id: string; times: number }>;
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
  /**
   * When the test command starts this runner (runnerHint.ts): how sure the output is its own even where detect()
   * sees nothing it knows — what the runner prints when it dies before reporting (mocha 8's bare stack trace).
   */
  detectHinted?(text: string): number;
  parse(text: string, opts?: LineOptions): ParseResult;
  /** The same parser fed one line at a time, for outputs too large to hold (see common/lineParser.ts). */
  lines?(opts?: LineOptions): LineParser;
  /** Several report files one run wrote (JUnit XML), read into one result: a missing or unreadable one is a load error. */
  reports?(texts: string[], opts?: LineOptions): ParseResult;
}

export interface LineParser {
  /** One line, without its line ending, ANSI-free (at most MAX_LINE_CHARS long, unless `wholeLines`). */
  push(line: string): void;
  finish(): ParseResult;
  /** Lines come whole, however long: the parser may read a document printed as one line (jest --json). */
  wholeLines?: boolean;
}

/** What the caller of a line parser may lend it. */
export interface LineOptions {
  /**
   * The string already held for an ID equal to this one (the verifier's from its last run), so that a parser keeps
   * that one and each run's copy of a million IDs is garbage the moment it is read.
   */
  intern?: (id: string) => string;
  /**
   * Where the run was started and by which command: a runner that names a test by its module (unittest) finds the
   * test's file there. Without them its IDs follow the module names alone.
   */
  cwd?: string;
  command?: string;
}
