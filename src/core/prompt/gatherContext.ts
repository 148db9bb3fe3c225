// The prompt's code context: hints (where the failures point, the files the failing tests reach, what earlier
// attempts edited) ranked, cut into regions by the CodeReader, and filled into a token budget by rank. What did not
// fit is named. A file the reader cannot cut (no grammar, unparsable) shows a window of lines around its ranked
// lines; a file with no ranked line shows whole when small, else its outline — never its head cut off.
import type { CodeContext, CodeHint, CodeReader, CodeRegion, FileOutline } from '../../ports/codeContext';
import type { RunState } from '../../ports/runState';
import { estimateTokens } from '../../base/estimateTokens';
import { checkReadable } from '../edits/pathPolicy';
import type { PathPolicy } from '../edits/pathPolicy';
import { boundedRead, importedFiles } from './contextFiles';
import { compiledSourceOf } from './compiledSource';
import { witnessHints } from './codeHints';
import { codeSection, isWhole } from './codeSection';

export const DEFAULT_CONTEXT_TOKENS = 6000;
/** A file with no ranked line is shown whole up to this size; a bigger one by its outline. */
const WHOLE_FILE_TOKENS = 1500;
const WINDOW_LINES = 20;
const MAX_FILES = 30;
const MAX_LINES_PER_FILE = 6;
const MAX_OUTLINE_LINES = 30;
const MAX_MAP_LINES = 20;
const MAX_READ_BYTES = 2 * 1024 * 1024;
/** The file's header line (its path and what is shown) and the section's words around the code, in tokens: upper bounds. */
const FILE_OVERHEAD = 40;
const SECTION_OVERHEAD = 80;
/** A region's fences and the "⋮ (lines …)" marker before it. */
const REGION_OVERHEAD = 12;
const REACH_HOPS = 3;
const SCORE_TOUCHED = 55;
const SCORE_REACHED = 50;

export interface GatherInput {
  state: RunState;
  policy: PathPolicy;
  reader?: CodeReader;
  budgetTokens: number;
  isProtected(rel: string): boolean;
  /** Which of these real paths git ignores (never shown: .env and local settings live there). */
  unrecorded(real: string[]): Promise<string[]>;
  /** Hints from elsewhere (coverage of the failing tests), beside the witness's own. */
  extraHints?: readonly CodeHint[];
}

/** One file as the prompt shows it. */
export interface ShownFile {
  path: string;
  lineCount: number;
  /** Shown regions in line order; one region of kind 'file' covering every line: the whole file. */
  regions: CodeRegion[];
  /** Declarations of the file not shown. */
  outline: string[];
}

export interface GatheredContext extends CodeContext {
  files: ShownFile[];
}

interface Candidate {
  path: string;
  score: number;
  lines: number[];
  /** Names the code that reaches this file uses from it (the resolver's): their declarations are shown. */
  symbols: string[];
}

export async function gatherContext(input: GatherInput): Promise<GatheredContext> {
  const candidates = await rankedFiles(input);
  const budget = new Budget(input.budgetTokens - SECTION_OVERHEAD);
  const shown = new Map<string, ShownFile>();
  const left = new Set<string>();
  // A file left out is named in the prompt: its name costs too.
  const leave = (rel: string) => {
    if (!left.has(rel)) budget.force(estimateTokens(rel) + 1);
    left.add(rel);
  };
  const pending: Candidate[] = [];
  // What the shown failing tests call: a file they reach shows the declarations of these names.
  const called = new Set<string>();

  for (const c of candidates) {
    const text = readText(c.path, input.policy);
    if (text === null) continue;
    const regions = await regionsFor(c, text, input.reader, [...new Set([...c.symbols, ...called])]);
    if (!regions.length) {
      pending.push(c);
      continue;
    }
    const code = regions.filter((r) => r.kind !== 'imports');
    const imports = regions.filter((r) => r.kind === 'imports');
    const fitted: CodeRegion[] = [];
    for (const r of code) {
      if (budget.take(cost(r) + (fitted.length ? 0 : FILE_OVERHEAD))) fitted.push(r);
      else leave(c.path);
    }
    if (!fitted.length) {
      pending.push(c);
      continue;
    }
    for (const r of imports) if (budget.take(cost(r))) fitted.push(r);
    for (const r of fitted) for (const name of r.calls ?? []) called.add(name);
    shown.set(c.path, { path: c.path, lineCount: lineCount(text), regions: inLineOrder(fitted), outline: [] });
  }

  // What else the shown files hold, then a map of what the rest export: both cheap, both within the same budget.
  for (const file of shown.values()) {
    if (isWhole(file) || !input.reader) continue;
    const outline = await input.reader.outline(file.path, false, file.regions);
    file.outline = fitLines(outline.lines.slice(0, MAX_OUTLINE_LINES), budget);
  }
  const map: FileOutline[] = [];
  for (const c of pending) {
    const lines = input.reader ? fitLines((await input.reader.outline(c.path, true)).lines.slice(0, MAX_MAP_LINES), budget, FILE_OVERHEAD) : [];
    if (lines.length) map.push({ path: c.path, lines });
    leave(c.path);
  }
  const files = [...shown.values()];
  const context: GatheredContext = {
    files,
    regions: files.flatMap((f) => f.regions),
    outlines: files.filter((f) => f.outline.length).map((f) => ({ path: f.path, lines: f.outline })),
    map,
    tokens: 0,
    left: [...left],
  };
  // What the section really takes, as the prompt will show it.
  context.tokens = estimateTokens(codeSection(context, input.isProtected) ?? '');
  return context;
}

/** Files by their best hint, each with its ranked lines; readable, not git-ignored, compiled output mapped to its source. */
async function rankedFiles(input: GatherInput): Promise<Candidate[]> {
  const { state, policy } = input;
  const hints: CodeHint[] = [
    ...witnessHints(state.current.witness, state.cwd, input.isProtected).map((h) => {
      // A stack frame in compiled output (out/test/x.test.js) stands for its TypeScript source; its line does not.
      const source = compiledSourceOf(h.path, policy, boundedRead);
      return source ? { path: source, score: h.score, source: h.source } : h;
    }),
    ...(input.extraHints ?? []),
    ...state.iterations.flatMap((it) => it.files).map((path): CodeHint => ({ path, score: SCORE_TOUCHED, source: 'read' })),
  ];
  const hinted = [...new Set(hints.map((h) => h.path))];
  const reached = await reachedHints(hinted, input);
  hints.push(...reached.hints);

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
    .map(({ c }) => ({ path: c.path, score: c.score, symbols: reached.symbols.get(c.path) ?? [], lines: [...c.lineScores].sort((a, b) => b[1] - a[1]).slice(0, MAX_LINES_PER_FILE).map(([line]) => line).sort((a, b) => a - b) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_FILES);
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

async function regionsFor(c: Candidate, text: string, reader: CodeReader | undefined, symbols: string[]): Promise<CodeRegion[]> {
  const lines = text.split('\n');
  if (!c.lines.length) {
    if (estimateTokens(text) <= WHOLE_FILE_TOKENS) return [{ path: c.path, startLine: 1, endLine: lineCount(text), kind: 'file', text: lines.slice(0, lineCount(text)).join('\n'), score: c.score }];
    // A big file no failure names a line of: the declarations the failing tests call, if it has them.
    const named = reader && symbols.length ? await reader.regions(c.path, [], symbols) : [];
    return named.some((r) => r.kind !== 'imports') ? named.map((r) => ({ ...r, score: c.score })) : [];
  }
  const cut = reader ? await reader.regions(c.path, c.lines) : [];
  if (cut.length) return cut.map((r) => ({ ...r, score: c.score }));
  // No grammar or no parse: the lines around each ranked line, overlapping windows joined.
  const windows: Array<[number, number]> = [];
  for (const line of c.lines) {
    const [start, end] = [Math.max(1, line - WINDOW_LINES), Math.min(lineCount(text), line + WINDOW_LINES)];
    const last = windows[windows.length - 1];
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else if (start <= end) windows.push([start, end]);
  }
  return windows.map(([start, end]) => ({ path: c.path, startLine: start, endLine: end, kind: 'file', text: lines.slice(start - 1, end).join('\n'), score: c.score }));
}

function readText(rel: string, policy: PathPolicy): string | null {
  const check = checkReadable(policy, rel);
  if (!check.ok) return null;
  const raw = boundedRead(check.abs, MAX_READ_BYTES);
  if (raw === null || raw.includes(0)) return null;
  return raw.toString('utf8').replace(/\r\n/g, '\n');
}

/** Lines of a text, a final newline not counted as the start of another line. */
export function lineCount(text: string): number {
  if (!text) return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

function cost(r: CodeRegion): number {
  return estimateTokens(r.text) + REGION_OVERHEAD;
}

function inLineOrder(regions: CodeRegion[]): CodeRegion[] {
  return [...regions].sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
}

/** As many of the lines as the budget still holds, after `overhead`. */
function fitLines(lines: string[], budget: Budget, overhead = 0): string[] {
  if (!lines.length || !budget.take(overhead)) return [];
  const out: string[] = [];
  for (const line of lines) {
    if (!budget.take(estimateTokens(line) + 1)) break;
    out.push(line);
  }
  if (!out.length) budget.give(overhead);
  return out;
}

class Budget {
  used = 0;
  constructor(private readonly limit: number) {}
  take(tokens: number): boolean {
    if (this.used + tokens > this.limit) return false;
    this.used += tokens;
    return true;
  }
  force(tokens: number): void {
    this.used += tokens;
  }
  give(tokens: number): void {
    this.used -= tokens;
  }
}
