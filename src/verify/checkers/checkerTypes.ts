// The vocabulary of checkers other than the test command (linters, type checkers, compilers): what one run of a
// check command is reduced to. Kept apart from ../types so it can move to ports/ as it is (issue 24's wiring).

/**
 * The outputs a reader exists for. `cargo-json` is cargo check / cargo clippy with --message-format=json; the linters
 * of Java, C/C++, Ruby and PHP (issue 39) are named after the tool.
 */
export type CheckerFormat =
  | 'eslint' | 'biome' | 'oxlint' | 'pyright' | 'mypy' | 'pylint' | 'go-vet' | 'gofmt' | 'cargo-json' | 'tsc' | 'javac' | 'php-lint' | 'msbuild' | 'gcc'
  | 'clang-tidy' | 'rubocop' | 'checkstyle' | 'spotbugs' | 'pmd' | 'phpcs' | 'phpstan' | 'psalm' | 'spotless' | 'php-cs-fixer';

export const CHECKER_FORMATS: readonly CheckerFormat[] = [
  'eslint', 'biome', 'oxlint', 'pyright', 'mypy', 'pylint', 'go-vet', 'gofmt', 'cargo-json', 'tsc', 'javac', 'php-lint', 'msbuild', 'gcc',
  'clang-tidy', 'rubocop', 'checkstyle', 'spotbugs', 'pmd', 'phpcs', 'phpstan', 'psalm', 'spotless', 'php-cs-fixer',
];

const C_FAMILY = ['.c', '.h', '.cc', '.cpp', '.cxx', '.hpp', '.hh', '.hxx', '.m', '.mm'];

/** The files each format's checker reads, by extension: what a file must be to hold code moved out of its reach. */
export const FORMAT_EXTENSIONS: Record<CheckerFormat, readonly string[]> = {
  eslint: ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts'],
  biome: ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts'],
  oxlint: ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts'],
  tsc: ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts'],
  pyright: ['.py', '.pyi'],
  mypy: ['.py', '.pyi'],
  pylint: ['.py'],
  'go-vet': ['.go'],
  gofmt: ['.go'],
  'cargo-json': ['.rs'],
  javac: ['.java'],
  'php-lint': ['.php'],
  msbuild: ['.cs'],
  gcc: C_FAMILY,
  'clang-tidy': C_FAMILY,
  rubocop: ['.rb', '.rake', '.gemspec', '.ru'],
  checkstyle: ['.java'],
  spotbugs: ['.java'],
  pmd: ['.java'],
  phpcs: ['.php', '.inc'],
  phpstan: ['.php'],
  psalm: ['.php'],
  // Spotless formats what its configuration names; these are the languages of the builds that run it.
  spotless: ['.java', '.kt', '.kts', '.groovy', '.gradle', '.scala'],
  'php-cs-fixer': ['.php'],
};

/** The `source` each format's findings carry, where it does not depend on the command (GCC-style, cargo). */
export const FORMAT_SOURCES: Partial<Record<CheckerFormat, readonly string[]>> = {
  eslint: ['eslint'], biome: ['biome'], oxlint: ['oxlint'], tsc: ['tsc'], pyright: ['pyright'], mypy: ['mypy'], pylint: ['pylint'], 'go-vet': ['go vet'], gofmt: ['gofmt'], javac: ['javac'],
  'php-lint': ['php -l'], 'clang-tidy': ['clang-tidy'], rubocop: ['rubocop'], checkstyle: ['checkstyle'], spotbugs: ['spotbugs'],
  pmd: ['pmd'], phpcs: ['phpcs'], phpstan: ['phpstan'], psalm: ['psalm'], spotless: ['spotless'], 'php-cs-fixer': ['php-cs-fixer'],
};

export type Severity = 'error' | 'warning' | 'info';

/** One finding, as the witness compares it: by file, source, code and message (line and column are for people). */
export interface CheckerDiagnostic {
  /** Workspace-relative POSIX path; absolute only when the file lies outside the workspace; "" when none is named. */
  file: string;
  /** 1-based; 0 when the checker names no position. */
  line: number;
  column: number;
  /** The tool that reported it: "eslint", "pyright", "rustc", "clippy", "go vet"… */
  source: string;
  /** The rule or error code ("@typescript-eslint/no-unused-vars", "E0308", "attr-defined"); "" when there is none. */
  code: string;
  message: string;
  severity: Severity;
}

/** What one reader makes of one output. */
export interface CheckerReport {
  format: CheckerFormat;
  /** The findings that count: errors, plus warnings when they were asked for. Sorted by file, line, column. */
  diagnostics: CheckerDiagnostic[];
  /** Findings of every severity, for a person's eyes (the Problems view); never part of the verdict. */
  all: CheckerDiagnostic[];
  /**
   * Sorted workspace-relative files the output names as checked. With `checkedIsComplete` (ESLint lists every file
   * it linted) a file missing from it was not checked; otherwise only files with findings (or a crate's root) appear.
   */
  checked: string[];
  checkedIsComplete: boolean;
  /** How many files the checker says it checked, when it says (pyright, mypy, oxlint, biome); null otherwise. */
  checkedCount: number | null;
}

export interface ReadOptions {
  /** The workspace root the command ran in: absolute paths under it are made relative. */
  cwd: string;
  /** Count warnings as well as errors (a checker's setting). */
  warnings?: boolean;
  /** Overrides the source the reader would name (the GCC-style fallback calls its findings after the command). */
  source?: string;
}

/** A reader either understands the output or says, in one sentence, why it cannot. */
export type ReadOutcome = { ok: true; report: CheckerReport } | { ok: false; reason: string };

export interface CheckerReader {
  format: CheckerFormat;
  /** The name a person knows the tool by, for sentences ("ESLint", "go vet"). */
  tool: string;
  /** How sure the reader is that `text` is its output, in [0,1]; 0 when it cannot be. */
  detect(text: string): number;
  read(text: string, opts: ReadOptions): ReadOutcome;
  /**
   * The tool prints nothing when it finds nothing (go vet, gcc). For the others an empty output means the report
   * went elsewhere (`-o file`) or the tool never ran, and it is never read as clean.
   */
  silentWhenClean: boolean;
}

/** Where and how a check command runs. */
export interface CheckRunOptions {
  cwd: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}
