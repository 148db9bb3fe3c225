// The seeded mutation generator of bench:context: the functions of a source file (tree-sitter, the grammars
// @vscode/tree-sitter-wasm ships) and, in each, every place one of seven single-line mutations applies — a flipped
// comparison, a wrong arithmetic or logical operator, a constant ± 1, an off-by-one in a bound, a negated condition, a
// swapped argument, a removed call. Which function and which place are drawn by a seeded generator, never by hand.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Language, Parser } from '@vscode/tree-sitter-wasm';
import type { Node } from '@vscode/tree-sitter-wasm';
import { wasmDir } from '../../src/context/parse/grammars';

export type Grammar = 'javascript' | 'typescript' | 'tsx' | 'python' | 'go' | 'rust' | 'java' | 'cpp' | 'ruby' | 'php';

export type Operator =
  | 'flipped comparison' | 'wrong arithmetic operator' | 'wrong logical operator' | 'constant ± 1'
  | 'off-by-one in a bound' | 'negated condition' | 'swapped argument' | 'removed call';

export const OPERATORS: readonly Operator[] = [
  'flipped comparison', 'wrong arithmetic operator', 'wrong logical operator', 'constant ± 1',
  'off-by-one in a bound', 'negated condition', 'swapped argument', 'removed call',
];

const BY_EXTENSION: Record<string, Grammar> = {
  '.js': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript', '.ts': 'typescript', '.mts': 'typescript', '.tsx': 'tsx',
  '.py': 'python', '.go': 'go', '.rs': 'rust', '.java': 'java', '.c': 'cpp', '.h': 'cpp', '.cc': 'cpp', '.cpp': 'cpp', '.hpp': 'cpp',
  '.rb': 'ruby', '.php': 'php',
};

export function grammarOf(file: string): Grammar | null {
  return BY_EXTENSION[path.extname(file).toLowerCase()] ?? null;
}

/** One function of a file: 1-based first and last line. */
export interface Fn { file: string; name: string; start: number; end: number }

/** One mutation: on 1-based `line`, the characters [from, to) become `replacement`. */
export interface Site { file: string; line: number; from: number; to: number; original: string; replacement: string; operator: Operator }

/** A drawn mutant: the site, the function it is in, and the line before and after. */
export interface Mutant extends Site { id: string; fn: string; before: string; after: string }

let runtime: Promise<void> | null = null;
const languages = new Map<Grammar, Promise<Language>>();

function language(g: Grammar): Promise<Language> {
  let got = languages.get(g);
  if (!got) {
    const dir = wasmDir();
    if (!dir) throw new Error('The tree-sitter grammars are missing (node_modules/@vscode/tree-sitter-wasm/wasm); run npm ci.');
    runtime ??= Parser.init({ locateFile: (f: string) => path.join(dir, f) });
    got = runtime.then(async () => Language.load(new Uint8Array(await fs.promises.readFile(path.join(dir, `tree-sitter-${g === 'tsx' ? 'tsx' : g}.wasm`)))));
    languages.set(g, got);
  }
  return got;
}

/** Parses `text` and hands the root to `use`; the tree is freed after. */
export async function withRoot<T>(g: Grammar, text: string, use: (root: Node) => T): Promise<T> {
  const lang = await language(g);
  const parser = new Parser();
  parser.setLanguage(lang);
  const tree = parser.parse(text);
  try {
    if (!tree) throw new Error('tree-sitter gave no tree');
    return use(tree.rootNode);
  } finally {
    tree?.delete();
    parser.delete();
  }
}

const FUNCTION_TYPES = new Set([
  'function_declaration', 'function_definition', 'method_definition', 'method_declaration', 'function_item', 'generator_function_declaration',
  'arrow_function', 'function_expression', 'function', 'method', 'singleton_method', 'constructor_declaration', 'func_literal',
  'closure_expression', 'lambda_expression', 'anonymous_function', 'anonymous_function_creation_expression',
]);

function nameOf(n: Node): string {
  const own = n.childForFieldName('name') ?? n.childForFieldName('declarator');
  if (own) return own.text.split('(')[0].trim().slice(0, 60);
  const p = n.parent;
  const holder = p?.childForFieldName('name') ?? p?.childForFieldName('left') ?? p?.childForFieldName('key');
  return holder ? holder.text.slice(0, 60) : `<anonymous@${n.startPosition.row + 1}>`;
}

/** The file's functions, outermost and nested alike, in source order. */
export async function functionsOf(file: string, text: string, g: Grammar): Promise<Fn[]> {
  return withRoot(g, text, (root) => {
    const out: Fn[] = [];
    const walk = (n: Node) => {
      if (FUNCTION_TYPES.has(n.type) && n.endPosition.row > n.startPosition.row) out.push({ file, name: nameOf(n), start: n.startPosition.row + 1, end: n.endPosition.row + 1 });
      for (const c of n.namedChildren) if (c) walk(c);
    };
    walk(root);
    return out;
  });
}

const BINARY = new Set(['binary_expression', 'binary_operator', 'boolean_operator', 'comparison_operator', 'binary']);
/** The negation of a comparison (the other side of it) … */
const FLIP: Record<string, string> = { '<': '>=', '>': '<=', '<=': '>', '>=': '<', '==': '!=', '!=': '==', '===': '!==', '!==': '===' };
/** … and the same comparison with or without its bound. */
const BOUND: Record<string, string> = { '<': '<=', '<=': '<', '>': '>=', '>=': '>' };
const ARITHMETIC: Record<string, string> = { '+': '-', '-': '+', '*': '/', '/': '*', '%': '*', '<<': '>>', '>>': '<<' };
const LOGICAL: Record<string, string> = { '&&': '||', '||': '&&', and: 'or', or: 'and' };
const INTEGER = new Set(['number', 'integer', 'int_literal', 'integer_literal', 'decimal_integer_literal', 'number_literal']);
const CONDITIONAL = new Set(['if_statement', 'if_expression', 'while_statement', 'while_expression', 'if', 'unless', 'while', 'elif_clause', 'do_statement']);
const ARGUMENTS = new Set(['arguments', 'argument_list']);
const CALL = new Set(['call_expression', 'call', 'method_invocation', 'function_call_expression', 'member_call_expression', 'scoped_call_expression']);
const STATEMENT = new Set(['expression_statement']);

/** What stands in for a removed call statement, so the line stays and the code still parses. */
const NO_OP: Record<Grammar, string> = {
  javascript: ';', typescript: ';', tsx: ';', java: ';', cpp: ';', php: ';', rust: ';', go: '{}', python: 'pass', ruby: 'nil',
};

function negate(text: string, g: Grammar): string {
  if (g === 'python') return `not (${text})`;
  if (g === 'ruby') return `!(${text})`;
  // A condition that carries its own parentheses (JS, Java, C/C++, PHP) keeps them around the negation.
  if (text.startsWith('(') && text.endsWith(')')) return `(!${text})`;
  return `!(${text})`;
}

/** Every place in `text` one of the mutations applies, one line each, in source order. */
export async function sitesOf(file: string, text: string, g: Grammar): Promise<Site[]> {
  const lines = text.split('\n');
  return withRoot(g, text, (root) => {
    const out: Site[] = [];
    const add = (n: Node, replacement: string, operator: Operator) => {
      const row = n.startPosition.row;
      if (n.endPosition.row !== row) return;
      const line = lines[row];
      // Columns are characters only on an ASCII line; the text under the node must be what the line holds there.
      if (!/^[\x00-\x7f]*$/.test(line)) return;
      const from = n.startPosition.column;
      const to = n.endPosition.column;
      if (line.slice(from, to) !== n.text || n.text === replacement) return;
      out.push({ file, line: row + 1, from, to, original: n.text, replacement, operator });
    };
    const walk = (n: Node) => {
      if (n.type === 'comment' || /string|template|regex/.test(n.type)) return;
      if (BINARY.has(n.type)) {
        for (const c of n.children) {
          if (!c || c.isNamed) continue;
          const op = c.text;
          if (FLIP[op]) add(c, FLIP[op], 'flipped comparison');
          if (BOUND[op]) add(c, BOUND[op], 'off-by-one in a bound');
          if (ARITHMETIC[op] && n.namedChildren.length === 2) add(c, ARITHMETIC[op], 'wrong arithmetic operator');
          if (LOGICAL[op]) add(c, LOGICAL[op], 'wrong logical operator');
        }
      }
      if (INTEGER.has(n.type) && /^\d+$/.test(n.text) && n.text.length < 10) {
        const v = Number(n.text);
        // Up and down are two sites: the draw picks one.
        add(n, String(v + 1), 'constant ± 1');
        if (v > 0) add(n, String(v - 1), 'constant ± 1');
      }
      if (CONDITIONAL.has(n.type)) {
        const cond = n.childForFieldName('condition');
        if (cond) add(cond, negate(cond.text, g), 'negated condition');
      }
      if (ARGUMENTS.has(n.type) && n.parent && CALL.has(n.parent.type)) {
        const args = n.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
        if (args.length >= 2 && args[0].text !== args[1].text && args[0].endPosition.row === args[1].startPosition.row && args[0].startPosition.row === n.startPosition.row) {
          // The span from the first argument's start to the second's end, the two swapped and what lies between kept.
          const row = args[0].startPosition.row;
          const line = lines[row];
          const a = args[0].startPosition.column;
          const b = args[1].endPosition.column;
          if (/^[\x00-\x7f]*$/.test(line) && line.slice(a, b).startsWith(args[0].text) && line.slice(a, b).endsWith(args[1].text)) {
            const between = line.slice(a + args[0].text.length, b - args[1].text.length);
            out.push({ file, line: row + 1, from: a, to: b, original: line.slice(a, b), replacement: args[1].text + between + args[0].text, operator: 'swapped argument' });
          }
        }
      }
      const isCallStatement = (STATEMENT.has(n.type) && n.namedChildren.length === 1 && CALL.has(n.namedChildren[0]?.type ?? '')) ||
        (g === 'ruby' && CALL.has(n.type) && n.parent !== null && ['body_statement', 'then', 'else', 'do', 'block_body', 'program'].includes(n.parent.type));
      if (isCallStatement) add(n, NO_OP[g], 'removed call');
      for (const c of n.namedChildren) if (c) walk(c);
    };
    walk(root);
    // A site the same text at the same place produces twice (a comparison's flip and its bound agree) is kept once.
    const seen = new Set<string>();
    return out.filter((s) => {
      const key = `${s.line}:${s.from}:${s.to}:${s.replacement}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    }).sort((x, y) => x.line - y.line || x.from - y.from);
  });
}

/** The line with the site applied. */
export function applySite(line: string, s: Site): string {
  return line.slice(0, s.from) + s.replacement + line.slice(s.to);
}

/** mulberry32: a small seeded generator, the same draws for the same seed on every machine. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed for one project: the bench's seed and the project's name, so adding a project changes no other's draws. */
export function projectSeed(seed: number, name: string): number {
  let h = seed >>> 0;
  for (const ch of name) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

/**
 * Mutants drawn uniformly over `fns` (each draw: a function, then one of its sites), without repeats, in draw order:
 * the caller tries them one by one and keeps those a test sees. A function without a site is dropped from the draw.
 */
export function* draw(fns: readonly Fn[], sites: readonly Site[], texts: ReadonlyMap<string, string[]>, seed: number): Generator<Mutant> {
  const next = rng(seed);
  // A site belongs to the innermost function around it.
  const owner = (s: Site) => fns.filter((f) => f.file === s.file && f.start <= s.line && s.line <= f.end).sort((a, b) => a.end - a.start - (b.end - b.start))[0];
  const byFn = new Map<Fn, Site[]>();
  for (const s of sites) {
    const f = owner(s);
    if (!f) continue;
    if (!byFn.has(f)) byFn.set(f, []);
    byFn.get(f)!.push(s);
  }
  const pool = fns.filter((f) => byFn.has(f)).map((f) => ({ f, left: [...byFn.get(f)!] }));
  let n = 0;
  while (pool.length) {
    const i = Math.floor(next() * pool.length);
    const { f, left } = pool[i];
    const s = left.splice(Math.floor(next() * left.length), 1)[0];
    if (left.length === 0) pool.splice(i, 1);
    const before = texts.get(s.file)![s.line - 1];
    yield { ...s, id: `m${++n}`, fn: f.name, before, after: applySite(before, s) };
  }
}
