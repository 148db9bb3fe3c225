// Which files the prompt's code context considers, and their ranked lines: the witness's hints (checker lines, stack
// frames, the failing tests), where the failing tests' functions are declared, what earlier attempts touched, the files
// all these import, and the spectrum's lines fused with the functions the failure's own words point to.
import type { CodeHint } from '../../ports/codeContext';
import { isTestFunctionName } from '../../runners/registry';
import { checkReadable } from '../edits/pathPolicy';
import { boundedRead, importedFiles, toWorkspaceRelative } from './contextFiles';
import { compiledSourceOf } from './compiledSource';
import { HINT_SCORES, witnessHints } from './codeHints';
import { failureQuery, fuseHints } from './fuseHints';
import type { GatherInput } from './gatherContext';

const MAX_FILES = 30;
const MAX_LINES_PER_FILE = 6;
const REACH_HOPS = 3;
/** Functions the failure's words rank, at most: the best few become ranked lines (fuseHints keeps 3). */
const MAX_WORD_HITS = 10;
const SCORE_TOUCHED = 55;
const SCORE_REACHED = 50;

export interface Candidate {
  path: string;
  score: number;
  /** Best first: what fits of a file is cut out, and its calls followed, in this order. */
  lines: number[];
  /** Names the code that reaches this file uses from it (the resolver's): their declarations are shown. */
  symbols: string[];
}

/** Files by their best hint, each with its ranked lines; readable, not git-ignored, compiled output mapped to its source. */
export async function rankedFiles(input: GatherInput): Promise<Candidate[]> {
  const { state, policy } = input;
  const hints: CodeHint[] = [
    ...witnessHints(state.current.witness, state.cwd, input.isProtected).map((h) => {
      // A stack frame in compiled output (out/test/x.test.js) stands for its TypeScript source; its line does not.
      const source = compiledSourceOf(h.path, policy, boundedRead);
      return source ? { path: source, score: h.score, source: h.source } : h;
    }),
    ...(await testDeclarations(state.current.witness.failures, input)),
    ...state.iterations.flatMap((it) => it.files).map((path): CodeHint => ({ path, score: SCORE_TOUCHED, source: 'read' })),
  ];
  const coverage = input.extraHints ?? [];
  const hinted = [...new Set([...hints, ...coverage].map((h) => h.path))];
  const reached = await reachedHints(hinted, input);
  // The failure's words rank the functions of every file the tests reach; merged with the spectrum's lines.
  const searched = [...new Set([...hinted, ...reached.hints.map((h) => h.path)])].filter((p) => !input.isProtected(p));
  const words = input.reader?.lexical && searched.length ? await input.reader.lexical(searched, failureQuery(state.current.witness), MAX_WORD_HITS) : [];
  hints.push(...fuseHints(coverage, words), ...reached.hints);

  const byPath = new Map<string, { path: string; score: number; lineScores: Map<number, number> }>();
  for (const h of hints) {
    const c = byPath.get(h.path) ?? { path: h.path, score: -Infinity, lineScores: new Map<number, number>() };
    c.score = Math.max(c.score, h.score);
    if (h.line) c.lineScores.set(h.line, Math.max(c.lineScores.get(h.line) ?? -Infinity, h.score));
    byPath.set(h.path, c);
  }
  const checked = [...byPath.values()].flatMap((c) => {
    const check = checkReadable(policy, c.path);
    return check.ok ? [{ c, real: check.realRel }] : [];
  });
  const ignored = new Set(await input.unrecorded(checked.map((x) => x.real)));
  return checked
    .filter((x) => !ignored.has(x.real))
    .map(({ c }) => ({ path: c.path, score: c.score, symbols: reached.symbols.get(c.path) ?? [], lines: [...c.lineScores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, MAX_LINES_PER_FILE).map(([line]) => line) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_FILES);
}

/**
 * Where each failing test's function is declared, when its name is one (Go's `TestPast`, pytest's `test_ttl`): the
 * runner names the file of the line that failed, which for a Go test is often a shared helper (`common_test.go`)
 * while the test — and so the calls that lead to the bug — lives in another file of the package.
 */
async function testDeclarations(failures: ReadonlyArray<{ id: string; file?: string }>, input: GatherInput): Promise<CodeHint[]> {
  const reader = input.reader;
  if (!reader?.declaredNear) return [];
  const out: CodeHint[] = [];
  const byFile = new Map<string, Set<string>>();
  for (const f of failures.slice(0, MAX_FILES)) {
    if (!f.file) continue;
    // The innermost name is the test (`tests/test_error.py > TestError > test_quotes`): a class or file named like a
    // test (`TestError`, Go's pattern) holds it, and would show every test of the class.
    const names = f.id.split(/[^A-Za-z0-9_]+/).filter((w) => isTestFunctionName(w)).slice(-1);
    if (names.length) byFile.set(f.file, new Set([...(byFile.get(f.file) ?? []), ...names]));
  }
  for (const [file, names] of byFile) {
    const rel = toWorkspaceRelative(file, input.state.cwd);
    if (!rel) continue;
    for (const d of await reader.declaredNear(rel, [...names])) out.push({ path: d.path, line: d.line, score: HINT_SCORES.testLine, source: 'test' });
  }
  return out;
}

/** The files the hinted files import: the reader's resolver, several hops; without one, one hop of local imports. */
async function reachedHints(from: string[], input: GatherInput): Promise<{ hints: CodeHint[]; symbols: Map<string, string[]> }> {
  const reached = (input.reader ? await input.reader.reach(from, REACH_HOPS) : []).filter((r) => r.distance > 0);
  if (!reached.length) {
    return { hints: from.flatMap((rel) => importedFiles(rel, input.policy)).map((path) => ({ path, score: SCORE_REACHED, source: 'import' })), symbols: new Map() };
  }
  return {
    hints: reached.map((r) => ({ path: r.path, score: SCORE_REACHED - 5 * (r.distance - 1), source: 'import' })),
    symbols: new Map(reached.filter((r) => r.symbols?.length).map((r) => [r.path, r.symbols!])),
  };
}

