// Whole functions, not file heads: the units around the ranked lines of a parsed file, its imports, and for a test
// the helpers of its own file that it calls. Every region is whole lines as on disk, so a SEARCH block copied from
// one matches the file.
import type { Tree } from '@vscode/tree-sitter-wasm';
import type { CodeRegion } from '../../ports/codeContext';
import type { LanguageId } from '../parse/grammars';
import { calledNames, declarations, importRanges, linesOf, MAX_UNIT_LINES, referencedNames, statementAt, unitAt, valueStatements } from '../parse/units';
import type { Node } from '@vscode/tree-sitter-wasm';
import type { Unit } from '../parse/syntax';
import { unitOf } from '../parse/syntax';

/** Lines either side of a ranked line when no whole unit can be shown (too long, unparsable, outside any unit). */
export const WINDOW_LINES = 20;
/** A test's helpers, followed as deep as they go until this many are found (a count, not a number of hops). */
const MAX_HELPERS = 6;
/** Declarations shown for the names a test calls, at most, per file. */
const MAX_SYMBOLS = 6;
/** A constant or table longer than this is data, not logic: left to the outline. */
const MAX_VALUE_LINES = 60;

/** What to cut out: the units around these lines, and the declarations with these names. */
export interface Wanted {
  lines: readonly number[];
  symbols?: readonly string[];
}

export function regionsOf(tree: Tree, rel: string, text: string, want: Wanted, lang: LanguageId): CodeRegion[] {
  const fileLines = text.split('\n');
  const out: CodeRegion[] = [];
  const add = (startLine: number, endLine: number, kind: CodeRegion['kind'], name?: string, calls?: string[], node?: Node) => {
    const refs = node ? referencedNames(node, lang) : [];
    const asserts = kind === 'test' ? assertLines(fileLines, startLine, endLine) : [];
    out.push({
      path: rel, startLine, endLine, kind, ...(name ? { name } : {}), text: fileLines.slice(startLine - 1, endLine).join('\n'), score: 0,
      ...(calls?.length ? { calls } : {}), ...(refs.length ? { refs } : {}), ...(asserts.length ? { assertLines: asserts } : {}),
    });
  };
  for (const line of want.lines) {
    if (line < 1 || line > fileLines.length) continue;
    // An attribute's line is its item's, even inside an `impl` (which unitAt would give whole).
    const unit = documented(tree, line, text, lang, true) ?? unitAt(tree, line, text, lang) ?? documented(tree, line, text, lang);
    if (unit && !unit.node.hasError) {
      const [start, end] = linesOf(unit.node, lang);
      const calls = unit.kind === 'test' ? calledNames(unit.node, lang, true) : undefined;
      if (end - start < MAX_UNIT_LINES) add(start, end, unit.kind, unit.name, calls, unit.node);
      else add(Math.max(start, line - WINDOW_LINES), Math.min(end, line + WINDOW_LINES), unit.kind, unit.name, calls, unit.node);
      if (unit.kind === 'test') for (const helper of helpersOf(tree, unit, lang)) add(...linesOf(helper.node, lang), 'function', helper.name, undefined, helper.node);
      continue;
    }
    const statement = unit ? null : statementAt(tree, line, lang);
    if (statement && !statement.hasError && statement.endPosition.row - statement.startPosition.row < 40) add(statement.startPosition.row + 1, statement.endPosition.row + 1, 'file', undefined, undefined, statement);
    else add(...windowAround(line, fileLines.length), 'file');
  }
  for (const unit of named(tree, want.symbols ?? [], lang)) add(...linesOf(unit.node, lang), unit.kind, unit.name, undefined, unit.node);
  for (const value of namedValues(tree, want.symbols ?? [], lang)) add(value.node.startPosition.row + 1, value.node.endPosition.row + 1, 'file', value.name, undefined, value.node);
  if (!out.length) return [];
  for (const [start, end] of importRanges(tree, lang)) add(start, end, 'imports');
  return distinct(out);
}

/**
 * Declarations (and class members) with one of these names, short enough to show whole; `Cart.prototype.add` is
 * `add`. `symbols` come most wanted first (what the failing test calls before what those calls read): the cap keeps
 * the first of them, wherever they sit in the file.
 */
function named(tree: Tree, symbols: readonly string[], lang: LanguageId): Unit[] {
  if (!symbols.length) return [];
  const rank = wantedOrder(symbols);
  const found: Array<{ unit: Unit; at: number }> = [];
  for (const { unit, owner } of declarations(tree, lang)) {
    const short = unit.name.slice(unit.name.lastIndexOf('.') + 1);
    // `Loader.readScalar` (a typed call) finds only Loader's method; a bare `readScalar` any method of that name.
    const exact = owner ? rank.get(`${owner}.${short}`) : undefined;
    const loose = rank.get(short);
    const at = exact ?? loose;
    const [start, end] = linesOf(unit.node, lang);
    if (unit.kind === 'test' || at === undefined || end - start >= MAX_UNIT_LINES) continue;
    found.push({ unit, at: exact !== undefined && loose !== undefined ? Math.min(exact, loose) : at });
  }
  // A TypeScript overload's signatures are one name: they take one of the few places, not three.
  const names: string[] = [];
  return found.sort((a, b) => a.at - b.at).filter((f) => {
    if (!names.includes(f.unit.name)) names.push(f.unit.name);
    return names.indexOf(f.unit.name) < MAX_SYMBOLS;
  }).map((f) => f.unit);
}

function wantedOrder(symbols: readonly string[]): Map<string, number> {
  const rank = new Map<string, number>();
  symbols.forEach((s, i) => {
    if (!rank.has(s)) rank.set(s, i);
  });
  return rank;
}

/** Top-level value statements (constants, tables) that declare one of these names, short enough to show whole. */
function namedValues(tree: Tree, symbols: readonly string[], lang: LanguageId): Array<{ node: Node; name: string }> {
  if (!symbols.length) return [];
  const rank = wantedOrder(symbols);
  const found: Array<{ node: Node; name: string; at: number }> = [];
  for (const { node, names } of valueStatements(tree, lang)) {
    const name = names.find((n) => rank.has(n));
    if (!name || node.endPosition.row - node.startPosition.row >= MAX_VALUE_LINES) continue;
    found.push({ node, name, at: rank.get(name)! });
  }
  return found.sort((a, b) => a.at - b.at).slice(0, MAX_SYMBOLS);
}

/**
 * What a test checks, line by line: assert/expect calls, `t.Error`/`t.Fatal`, `self.assert…`, Rust's `assert!`, C#'s
 * `Assert.Equal`, GoogleTest's `EXPECT_EQ`/`ASSERT_TRUE`, Catch2's `REQUIRE`/`CHECK`.
 */
const ASSERTION = /\b(?:assert\w*!?|expect\w*|should|require\.\w+|t\.(?:Error|Fatal|Fail)\w*|self\.(?:assert|fail)\w*|panic!|Assert\.\w+|(?:EXPECT|ASSERT)_\w+|REQUIRE\w*|CHECK\w*)\s*[(.!]?/;

function assertLines(fileLines: readonly string[], start: number, end: number): number[] {
  const out: number[] = [];
  for (let line = start + 1; line < end; line++) if (ASSERTION.test(fileLines[line - 1] ?? '')) out.push(line);
  return out;
}

/**
 * A line of a doc comment (a Rust doctest failing "(line 348)", a Python docstring's example above its function's
 * body) stands for the item it documents: the next declaration after the comment. So does a line of an attribute
 * that sits beside its item rather than inside it (Rust's `#[test]`, where a test's declaration begins).
 */
function documented(tree: Tree, line: number, text: string, lang: LanguageId, attributesOnly = false): Unit | null {
  const source = text.split('\n')[line - 1] ?? '';
  const leading = (n: Node) => (!attributesOnly && n.type.includes('comment')) || n.type === 'attribute_item';
  let node: Node | null = tree.rootNode.descendantForPosition({ row: line - 1, column: Math.max(0, source.search(/\S/)) });
  while (node && node.parent && !leading(node) && node.parent.startPosition.row === node.startPosition.row) node = node.parent;
  if (!node || !leading(node)) return null;
  for (let next = node.nextNamedSibling; next; next = next.nextNamedSibling) {
    if (next.type.includes('comment') || next.type === 'attribute_item') continue;
    return unitOf(next, lang);
  }
  return null;
}

export function windowAround(line: number, lineCount: number): [number, number] {
  return [Math.max(1, line - WINDOW_LINES), Math.min(lineCount, line + WINDOW_LINES)];
}

/** The file's own functions a test calls, and theirs, a few levels down: what the test's body means. */
function helpersOf(tree: Tree, test: Unit, lang: LanguageId): Unit[] {
  const byName = new Map<string, Unit>();
  // Where a test is a method (JUnit, xUnit, PHPUnit, minitest), its helpers are methods of its class.
  const methods = lang === 'java' || lang === 'csharp' || lang === 'php' || lang === 'ruby';
  for (const { unit, depth } of declarations(tree, lang)) if ((depth === 0 || methods) && unit.kind === 'function' && unit.name && !byName.has(unit.name)) byName.set(unit.name, unit);
  const found: Unit[] = [];
  let frontier = [test];
  while (frontier.length && found.length < MAX_HELPERS) {
    const next: Unit[] = [];
    for (const unit of frontier) {
      for (const name of calledNames(unit.node, lang)) {
        const helper = byName.get(name);
        if (!helper || found.includes(helper) || helper.node.equals(test.node) || found.length >= MAX_HELPERS) continue;
        found.push(helper);
        next.push(helper);
      }
    }
    frontier = next;
  }
  return found;
}

/** One region per range; a range inside another one is dropped; of two equal ones, a named unit wins over plain lines. */
function distinct(regions: CodeRegion[]): CodeRegion[] {
  const rank = (r: CodeRegion) => (r.kind === 'file' ? 1 : 0);
  const sorted = [...regions].sort((a, b) => rank(a) - rank(b));
  const kept = sorted.filter((r, i) => !sorted.some((o, j) => j !== i && o.startLine <= r.startLine && o.endLine >= r.endLine && (o.startLine !== r.startLine || o.endLine !== r.endLine || j < i)));
  return regions.filter((r) => kept.includes(r));
}
