// One test runner's whole knowledge behind one interface: a room (src/runners/<name>/) registered in one list
// (registry.ts). See docs/development.md, "A runner is one room".
// A room has two halves. Its facts — the words that start it, its files, what its runs rewrite, what it prints when it
// finds no test — are plain data every layer may read without loading a parser: the extension's activation reads the
// protected files for the settings' defaults, the CLI's help the format names. Its code — reading its output, narrowing
// a run, taking coverage — is `code()`, loaded on first use (it ships in dist/runtime.js; esbuild.js keeps it there).
import type { Witness } from '../ports/verifier';
import type { TargetTest } from './common/args';
import type { Words } from '../base/commandWords';
import type { OutputParser } from './types';

export interface Runner {
  /** Its name: what a narrowing's sentences call it ("the command does not run pytest"). */
  name: string;
  /**
   * The formats its output is read as (`greenloop parse --format`, the witness's `runner`), its own first: node --test
   * prints TAP when its output is no terminal, so node's are node and tap. A run read as one of them is narrowed by this room.
   */
  formats: readonly string[];
  /**
   * Whether `words[i]` starts it, after any wrapper (npx, c8, `python -m`): the index of its first argument, else null.
   * The callers follow npm, pnpm and yarn scripts and `a && b` chains; a room only reads one command's words.
   */
  startsAt(words: readonly string[], i: number): number | null;
  /** Globs of its test files and of the files that decide how they run: protected from edits by default. */
  files: { tests: readonly string[]; config: readonly string[] };
  /** Parts of files other tools share that decide how its tests run (pytest's section of pyproject.toml): protected by content. */
  parts?: readonly ProtectedPart[];
  /** Added lines that disarm its checks from outside a test file (`pytest.fail = …`), refused whatever file they are in. */
  tamper?: readonly TamperRule[];
  /** Modules its tests assert with (`vitest`, `@jest/globals`): replacing part of one, under any alias, is tampering. */
  assertionModules?: readonly string[];
  /** Globs of what its runs write and rewrite (`.pytest_cache`): the outside watch never calls a change there an agent's. */
  regenerated?: readonly string[];
  /** What it prints when it finds no test to run (pytest's "no tests ran"): the command cannot run, said before any model call. */
  noTests?: readonly RegExp[];
  /**
   * Why an output it printed names no test the loop can use, for the sentence that says the output cannot be read
   * (node's dot reporter names failures without their suites); `exit` is the exit code in words.
   */
  unreadable?(output: string, exit: string): string | null;
  /** Its reporter that counts failures without naming them, as a person knows it ("jest's summary reporter"). */
  summaryReporter?: string;
  /** A test function's name (go's `TestParse`): the prompt looks for the failing test's own body under it. */
  testFunction?: RegExp;
  /** Its narrowing needs the workspace's files (go names a test's file by its base name; mocha's stack by its path). */
  narrowNeedsFiles?: boolean;
  /**
   * What marks a JUnit XML report as written by it, in the report's first 64 KB (Surefire's schema, gtest's
   * `name="AllTests"`): such a report's tests are named by its code's `junit` dialect, so a test read from its console
   * and from its XML gets one ID.
   */
  junitReports?: RegExp;
  /**
   * Reports it writes on every run, read beside its console when its output is read (Surefire's
   * `target/surefire-reports/TEST-*.xml`: Maven's console names no passing test, nor a parameterized test's invocation):
   * globs relative to the working folder, read by the `reports` of the parser of `format`. Only files the run wrote count.
   */
  ownReports?: { globs: readonly string[]; format: string };
  /**
   * The command a person would type to run its tests when none was given, read from the workspace's own files
   * (`pom.xml` → `mvn -B test`), with what was read; null when the folder is not laid out for it. Asked in the
   * registry's order, after package.json's test script.
   */
  suggestCommand?(cwd: string): SuggestedCommand | null;
  /** Its code, loaded on first use. */
  code(): RunnerCode;
}

export interface RunnerCode {
  /**
   * Its output parsers, one per format and in the same order: each detects its output, reads it whole or line by line,
   * names the files that did not load, and may recognise what it prints when it dies before reporting (`detectHinted`,
   * asked when the command starts this runner).
   */
  parsers: readonly OutputParser[];
  /** Its arguments narrowed to the targets (failing tests first), with its own selection; or why they cannot be. */
  narrow(args: Words, targets: readonly TargetTest[], run: NarrowContext): RunnerNarrowing | { why: string };
  /** How a narrowed run of it measures what it executes, given its words up to the runner; or why it cannot. */
  coverage(prefix: Words, ctx: PlanContext): CoveragePlan | { why: string };
  /** How its JUnit XML reports name a test (for the reports its facts' `junitReports` recognise). */
  junit?: JunitDialect;
}

/** A test command chosen from a workspace's files. */
export interface SuggestedCommand {
  command: string;
  /** What was read, for the sentence that says where the command came from: "pom.xml". */
  because: string;
}

/** One `<testcase>` of a JUnit report, as its attributes say it. */
export interface JunitCase {
  classname: string;
  name: string;
  /** The enclosing `<testsuite>`'s name. */
  suite: string;
  /** The testcase's or its suite's `file` attribute, when written. */
  file: string;
  /** Where the run was started, when known: a dialect may read the test's file there (RSpec's groups). */
  cwd?: string;
}

/** A runner's way of naming its tests in JUnit XML, turned into the contract's title path (" > " between parts). */
export interface JunitDialect {
  id(test: JunitCase): string;
  /** The workspace-relative file of the test, when the report lets it be known. */
  file?(test: JunitCase): string | undefined;
  /**
   * The file that did not load, when a test's failure says the code does not (PHPUnit's `ParseError` met while
   * autoloading a class): the report is then a load error, as the runner's console is.
   */
  loadError?(message: string): { file: string; line?: number; message: string } | null;
}

/** A format that is no one runner's (JUnit XML, which many write; tsc's diagnostics): read, never started or narrowed. */
export interface Reader {
  format: string;
  code(): OutputParser;
}

/** Where the arguments a room narrows were found. */
export interface NarrowContext {
  /** The workspace's files, when the runner's facts say its narrowing needs them (`narrowNeedsFiles`). */
  files: readonly string[] | undefined;
  /** The whole test command, as the verifier runs it (unittest reads the folder its discovery imports from). */
  command: string;
  /** The words of the runner's command up to its arguments: `python -m unittest`, `python manage.py test`. */
  prefix: Words;
}

export interface RunnerNarrowing {
  /** The runner's arguments, narrowed. */
  args: string[];
  /** The files (or packages) the run is limited to; null when it runs every file of the original command. */
  files: string[] | null;
  /** The name filter given to the runner. */
  pattern: string;
}

/** A part of a shared file that decides how tests (or checkers) run, compared before and after an edit. */
export interface ProtectedPart {
  /** The file name this rule applies to (any folder). */
  file: string;
  /** What a person reads in the refusal: "the test scripts of package.json". */
  what: string;
  /** The protected part of the text, as a comparable string (null: the file cannot be read that way). */
  extract(text: string): string | null;
}

/** Added lines that make tests pass without the code being right. */
export interface TamperRule {
  test: RegExp;
  /** What the edit does, in the refusal: "replaces part of pytest". */
  what: string;
}

export interface PlanContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** How a targeted run measures what it executes. */
export interface CoveragePlan {
  /** Which tool measures ("V8", "go -coverprofile", "coverage.py"). */
  tool: string;
  /** Variables the narrowed command runs with. */
  env: Record<string, string>;
  /** The runner's words and arguments as the covered run gives them. */
  wrap(prefix: Words, args: Words): { prefix: Words; args: Words };
  /** What the run executed, per run unit; `failingFiles`: workspace-relative files of the tests that failed. */
  read(w: Pick<Witness, 'failing' | 'exitCode'>, failingFiles: ReadonlySet<string>): Promise<CoverageUnit[] | { why: string }>;
  dispose(): void;
}

/** What one run unit (a test process, a package's test binary) executed, and whether a test in it failed. */
export interface CoverageUnit {
  failed: boolean;
  /** Workspace-relative path → 1-based lines executed at least once. */
  lines: Map<string, Set<number>>;
  /** The lines among them executed more than once, where the tool counts (V8 does; go's `set` mode and coverage.py do not). */
  repeated?: Map<string, Set<number>>;
}
