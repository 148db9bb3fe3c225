// The verifier port and its vocabulary: what a runner's output is reduced to (see ../shared/contract.md, "Witness").
// Implemented in verify/; the loop judges witnesses, the store saves them. Nothing here knows about VS Code.
import type { CodeHint } from './codeContext';

/**
 * A format an output was read as: a runner's (mocha, jest, vitest, node, tap, pytest, unittest, go, cargo) or a
 * reader's (junit, tsc). The names are the runners' registry's (runners/registry.ts), so a new runner adds its own there.
 */
export type RunnerFormat = string;

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
  /** The checker that reported it ("tsc", "eslint", "pyright", "clippy"…); absent in runs saved before checkers: tsc. */
  source?: string;
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
  /** The line of `file` where it broke, where the runner says (unittest's traceback of the failed import). */
  line?: number;
}

/** One test the output names, however it ended (same ID rules as FailingTest). */
export interface ReportedTest {
  id: string;
  status: TestStatus;
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
  /** The whole verification: the test command and the checkers (tsc, --check) it ran after it. */
  durationMs: number;
  /** The test command's own time, without the checkers; reports' test time (`testRuns`, `testMs`) counts this. */
  testDurationMs?: number;
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
  /**
   * The files each checker checked, by source, where it lists them whole (tsc's file list, ESLint's report): a file
   * checked before and not now is missing, like a test that stopped running (core/judge/checkedFiles.ts).
   */
  checked?: Record<string, string[]>;
  /** How many files a checker says it checked, by source, where it says a count but not the list (pyright, mypy). */
  checkedCounts?: Record<string, number>;
  /**
   * What each checker is, by the same keys (tsc, a check command): the `source` its diagnostics carry and the file
   * extensions it reads. A new file of those extensions it does not analyse may hold code moved out of its reach.
   */
  checkers?: Record<string, CheckerIdentity>;
  /** One sentence per checker that could not say (not installed, crashed, unrecognised): never green, never clean. */
  checkFailures?: string[];
  /** What ran: the whole suite (with the checkers), or only some tests (absent: the whole suite). */
  scope?: 'targeted' | 'full';
}

/** A checker as the judge and the edit rules name it. */
export interface CheckerIdentity {
  /** The `source` of its diagnostics ("pyright"; cargo clippy reports as "clippy" and "rustc"). */
  sources: string[];
  /** Extensions of the files it reads, with the dot (".py", ".pyi"). */
  extensions: string[];
}

/** What one checker said about one workspace state: its errors, what it checked, or why it could not say. */
export type CheckerResult =
  | { ok: true; diagnostics: Diagnostic[]; /** Files it checked, when it lists them whole; null when it does not say. */ checked: string[] | null; /** Sentences for a person (e.g. it stopped waiting). */ warnings: string[] }
  | { ok: false; /** One sentence: why nothing it reported can be trusted. Never read as clean. */ reason: string };

/** A diagnostic source beside the test command: a check command, tsc, or VS Code's Problems view. */
export interface Checker {
  /** What its diagnostics are called (`source`), and the key of what it checked in Witness.checked. */
  readonly source: string;
  /** `changed`: workspace-relative files the last edit wrote (a checker that waits for them to be re-read uses them). */
  run(changed: readonly string[], signal?: AbortSignal): Promise<CheckerResult>;
}

/** Thrown when the verifier cannot run at all (command not found, hang past its timeout). */
export class VerifyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VerifyError';
  }
}

/** A test to run first: its id, and where the runner said it is (file, or a stack in the message). */
export interface TestTarget {
  id: string;
  file?: string;
  message?: string;
}

/** A targeted run: the witness of the narrowed command (no checkers), or why the command cannot be narrowed. */
export type TargetedRun =
  | {
      ok: true; witness: Witness; /** The narrowed command as it ran. */ command: string; /** Tests asked for. */ tests: number;
      /** Asked for with `coverage`: what the run executed, or why it could not say. */ coverage?: CoverageCollected;
    }
  | { ok: false; why: string };

/**
 * The code a targeted run executed, ranked (issue 31): hints of source 'coverage' whose score is the line's
 * suspiciousness, or one sentence saying why the runner's coverage could not be read (not installed, no such tool).
 */
export type CoverageCollected =
  | {
      ok: true; hints: CodeHint[]; /** Which tool measured it ("V8", "go -coverprofile", "coverage.py"). */ tool: string;
      /** Units (processes, packages) that failed and passed: Ochiai needs passing ones. */ units: { failing: number; passing: number };
      /** What each unit executed, so a second covered run (of passing tests) can be ranked beside these. */ spectrum: SpectrumUnit[];
    }
  | { ok: false; why: string };

/** What one run unit (a test process, a package's test binary) executed, and whether a test in it failed. */
export interface SpectrumUnit {
  failed: boolean;
  /** Workspace-relative path → 1-based lines executed at least once. */
  lines: Map<string, Set<number>>;
  /** The lines among them executed more than once, where the tool counts. */
  repeated?: Map<string, Set<number>>;
}

/** Options of a targeted run. */
export interface TargetedOptions {
  /** Measure which lines the tests execute, where the runner allows it. */
  coverage?: boolean;
  /**
   * With `coverage`: these tests passed in the baseline and run as the spectrum's passing side (issue 40); their units
   * are ranked as passing beside `failing`, the failing tests' units of an earlier covered run.
   */
  passingBeside?: SpectrumUnit[];
}

/** How the loop asks for a whole-suite run. */
export interface VerifyOptions {
  /**
   * Checkers (by source, e.g. "tsc") not to run: the caller knows none of the files they see changed since a run
   * whose findings it carries over itself.
   */
  skipCheckers?: readonly string[];
}

export interface Verifier {
  verify(signal?: AbortSignal, opts?: VerifyOptions): Promise<Witness>;
  /**
   * Runs only these tests, narrowed by file and name with the runner's own selection, and no checker: what the loop
   * runs first when the tests failing in the best state are all that can change the verdict. `ok: false` when the
   * command cannot be narrowed (the loop then runs the whole suite).
   */
  verifyTargeted?(targets: readonly TestTarget[], signal?: AbortSignal, opts?: TargetedOptions): Promise<TargetedRun>;
  /**
   * Runs the test command again for these test IDs only (the runner's own filter where it has one, else the whole
   * command), to tell a flaky test from a broken one. The witness may name other tests too.
   */
  rerun?(ids: string[], signal?: AbortSignal): Promise<Witness>;
  /**
   * The same verifier over another folder (a copy of the workspace, `--candidates-parallel`): the same command and
   * rules, nothing shared with the workspace's runs (no live output, no incremental checker state).
   */
  inFolder?(cwd: string): Verifier;
}
