// What the model is shown of the code (issue 31). The adapter in src/context/ resolves imports as the runtime does,
// cuts files into functions with tree-sitter and reads coverage; core/prompt only orders and budgets what it is given.
// Paths are workspace-relative with forward slashes; lines are 1-based and inclusive.

/** Where the failing tests point, and how strongly. Scores are comparable across sources: higher is shown first. */
export interface CodeHint {
  path: string;
  /** Absent: the file as a whole (an import reached it, a diagnostic named no line). */
  line?: number;
  score: number;
  source: 'stack' | 'diagnostic' | 'coverage' | 'test' | 'import' | 'read' | 'words';
}

/** A file the failing tests reach through imports, and how many hops away (0: a failing test's own file). */
export interface ReachedFile {
  path: string;
  distance: number;
  /** Names the importing code uses from this file, when the resolver could tell. */
  symbols?: string[];
}

/** Whole lines of one file as they are on disk now, so a SEARCH block copied from them matches. */
export interface CodeRegion {
  path: string;
  startLine: number;
  endLine: number;
  kind: 'function' | 'class' | 'imports' | 'test' | 'file';
  /** The function's or class's name, when it has one. */
  name?: string;
  text: string;
  score: number;
  /** For a test: the names it calls (functions and methods), whose definitions the files it reaches may hold. */
  calls?: string[];
  /** The names the region refers to (calls and plain identifiers): whose declarations are followed next. */
  refs?: string[];
  /** For a test: its lines that assert, shown alone when another failing test of its file is shown whole. */
  assertLines?: number[];
}

/** One file's declarations that were not shown, one line each (`function total(items)`, `class Cart`). */
export interface FileOutline {
  path: string;
  lines: string[];
}

/** A function the failure's words point to: its lines, and how well it matched (0..1; 1 when the failure says its name). */
export interface LexicalHit {
  path: string;
  line: number;
  endLine: number;
  name: string;
  score: number;
  named: boolean;
}

/** What the prompt's code context section holds, and what did not fit (named in the prompt and the report). */
export interface CodeContext {
  regions: CodeRegion[];
  outlines: FileOutline[];
  /** The reached files' exported signatures, Aider-style: what exists beyond what is shown. */
  map: FileOutline[];
  tokens: number;
  /** Files ranked but left out for the budget. */
  left: string[];
}

/** The adapter core asks, through the engine's dependencies; src/context/ implements it. */
export interface CodeReader {
  /** Files reachable from `from` through imports, at most `hops` away, nearest first. */
  reach(from: readonly string[], hops: number): Promise<ReachedFile[]>;
  /**
   * The enclosing functions or classes of `lines` in `path`, and the declarations named `symbols` (functions,
   * classes, methods), plus its imports; empty when the file cannot be parsed or holds none of them.
   */
  regions(path: string, lines: readonly number[], symbols?: readonly string[]): Promise<CodeRegion[]>;
  /**
   * Where functions with these names are declared: in `near` itself or a file of the same language in its folder
   * (a Go test fails in a helper of common_test.go while its function lives in times_test.go). First match per name.
   */
  declaredNear?(near: string, names: readonly string[]): Promise<Array<{ path: string; line: number; name: string }>>;
  /**
   * The functions of `paths` whose identifiers best match `query` (the failure's own words), BM25 over names split at
   * camelCase and snake_case, best first, at most `limit`.
   */
  lexical?(paths: readonly string[], query: string, limit: number): Promise<LexicalHit[]>;
  /** The file's declarations, one line each; `exportedOnly` for the map; none inside `shown` (regions already in the prompt). */
  outline(path: string, exportedOnly: boolean, shown?: ReadonlyArray<Pick<CodeRegion, 'startLine' | 'endLine'>>): Promise<FileOutline>;
}

/**
 * Whether coverage of the failing tests ranked code for the prompt, and why not when it did not: the report's
 * `coverage`. Its price: the covered runs may take 30 % of the baseline's test time or 5 s, whichever is more.
 */
export interface CoverageNote {
  used: boolean;
  /** One sentence: what was measured and how it ranked, or why coverage was skipped. */
  why: string;
  /** "V8", "go -coverprofile", "coverage.py". */
  tool?: string;
  /** The baseline's test time (what coverage is priced against) and the covered run's, as measured. */
  baselineMs?: number;
  coveredMs?: number;
  /** Lines handed to the prompt as hints. */
  hints?: number;
  /** Ranked by Ochiai over failing and passing runs, or by "executed by the failing tests" alone. */
  ranking?: 'ochiai' | 'executed';
  /** Passing tests of the failing tests' files whose covered run was ranked beside them (0: none, or it was cut). */
  passingTests?: number;
}
