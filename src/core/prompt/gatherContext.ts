// The prompt's code context: hints (where the failures point, the files the failing tests reach, what earlier
// attempts edited) ranked, cut into regions by the CodeReader, and filled into a token budget by rank. What did not
// fit is named. A file the reader cannot cut (no grammar, unparsable) shows a window of lines around its ranked
// lines; a file with no ranked line shows whole when small, else its outline — never its head cut off.
import type { CodeContext, CodeHint, CodeReader, CodeRegion, FileOutline } from '../../ports/codeContext';
import type { RunState } from '../../ports/runState';
import { estimateTokens } from '../../base/estimateTokens';
import { checkReadable } from '../edits/pathPolicy';
import type { PathPolicy } from '../edits/pathPolicy';
import { boundedRead } from './contextFiles';
import { rankedFiles, type Candidate } from './rankedFiles';
import { codeSection, isWhole } from './codeSection';
import { oneBodyPerFile } from './testBodies';

export const DEFAULT_CONTEXT_TOKENS = 6000;
/** A file with no ranked line is shown whole up to this size; a bigger one by its outline. */
const WHOLE_FILE_TOKENS = 1500;
const WINDOW_LINES = 20;
const MAX_OUTLINE_LINES = 30;
const MAX_MAP_LINES = 20;
const MAX_READ_BYTES = 2 * 1024 * 1024;
/** The file's header line (its path and what is shown) and the section's words around the code, in tokens: upper bounds. */
const FILE_OVERHEAD = 40;
const SECTION_OVERHEAD = 80;
/** A region's fences and the "⋮ (lines …)" marker before it. */
const REGION_OVERHEAD = 12;
/**
 * The call graph is followed from the code the failures point to while the budget has room for another function
 * (issue 40: a fixed four hops stopped one call short of `readBlockScalar`); this only guards against a cycle of names.
 */
const MAX_REF_LEVELS = 24;
const MIN_FOLLOW_TOKENS = 120;
/** How many declarations the reader gives per lookup (regions.ts's MAX_SYMBOLS): a full answer may have left some out. */
const SYMBOLS_PER_LOOKUP = 6;
/** The share of the budget the failing tests' own code (their bodies and helpers) may take. */
const TEST_SHARE = 0.4;

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
  const texts = new Map<string, string | null>();
  const textOf = (rel: string) => {
    if (!texts.has(rel)) texts.set(rel, readText(rel, input.policy));
    return texts.get(rel)!;
  };
  /** Puts what fits of `regions` in the prompt (its file's imports once, with its first region); returns what fitted. */
  let testTokens = 0;
  const show = (c: Candidate, text: string, regions: CodeRegion[]): CodeRegion[] => {
    const file = shown.get(c.path);
    const have = file?.regions ?? [];
    const inside = (r: CodeRegion) => have.some((h) => h.startLine <= r.startLine && h.endLine >= r.endLine);
    const fitted: CodeRegion[] = [];
    for (const r of regions.filter((x) => x.kind !== 'imports' && !inside(x))) {
      // A test is a test wherever it lives (Rust's `mod tests` file, a test in the module it tests).
      const test = input.isProtected(c.path) || r.kind === 'test';
      const tokens = cost(r) + (file || fitted.length ? 0 : FILE_OVERHEAD);
      // The failing tests' own bodies take at most their share: 130 failing tests must not crowd out the code they call.
      if (test && testTokens + tokens > budget.limit * TEST_SHARE) leave(c.path);
      else if (budget.take(tokens)) {
        fitted.push(r);
        if (test) testTokens += tokens;
      } else leave(c.path);
    }
    if (!fitted.length) return [];
    if (!file) for (const r of regions.filter((x) => x.kind === 'imports')) if (budget.take(cost(r))) fitted.push(r);
    shown.set(c.path, { path: c.path, lineCount: lineCount(text), regions: inLineOrder([...have, ...fitted]), outline: [] });
    return fitted;
  };
  // The names the shown code refers to, whose declarations are followed next (a call graph, by name).
  const looked = new Set<string>();
  let next = new Set<string>();
  const follow = (regions: CodeRegion[]) => {
    for (const r of regions) for (const name of [...(r.calls ?? []), ...(r.refs ?? [])]) if (!looked.has(name)) next.add(name);
  };

  // 1. Where the failures point: the units around the ranked lines, nearest the failure first. Of a failing test
  //    file, one test whole and the others by their assertions; every one's calls are followed.
  for (const c of candidates.filter((x) => x.lines.length)) {
    const text = textOf(c.path);
    if (text === null) continue;
    const cut = await regionsFor(c, text, input.reader);
    if (show(c, text, oneBodyPerFile(cut)).length) follow(cut);
  }
  // 2. What that code refers to, level by level: the failing test's calls, then theirs (Agentless localizes test →
  //    function → line; here the hops are followed by name through the files the tests reach, the nearest first).
  const searchable = candidates.filter((c) => !input.isProtected(c.path));
  //    A call whose receiver's type the code states (`Loader.readScalar`) is looked up first, in every file; then
  //    the names alone, anywhere the tests reach (the over-approximation, ranked below the exact edges).
  for (let level = 0; level < MAX_REF_LEVELS && input.reader && budget.left() > MIN_FOLLOW_TOKENS; level++) {
    const names = [...next];
    next = new Set();
    for (const name of names) looked.add(name);
    const typed = names.filter((n) => n.includes('.'));
    // Names a full lookup could not take are nearer than what this level's code refers to: asked first next time.
    const carried = new Set<string>();
    for (const pass of [typed, names]) {
      for (const c of searchable) {
        // What the reaching code imports from this very file comes first, then what the shown code refers to.
        // A name already shown in this file takes no more of the reader's few declarations per lookup.
        const have = new Set((shown.get(c.path)?.regions ?? []).flatMap((r) => (r.name ? [r.name, r.name.slice(r.name.lastIndexOf('.') + 1)] : [])));
        const wanted = [...new Set([...(level === 0 && pass === names ? c.symbols : []), ...pass])].filter((n) => !have.has(n) && !have.has(n.slice(n.lastIndexOf('.') + 1)));
        if (!wanted.length) continue;
        const text = textOf(c.path);
        if (text === null) continue;
        const found = (await input.reader.regions(c.path, [], wanted)).map((r) => ({ ...r, score: c.score }));
        follow(show(c, text, found));
        // The lookup was full: the names it could not take are asked again at the next level, not lost.
        if (new Set(found.map((r) => r.name)).size >= SYMBOLS_PER_LOOKUP) for (const n of pass) if (!found.some((r) => r.name === n)) carried.add(n);
      }
    }
    next = new Set([...carried, ...next]);
    if (!next.size) break;
  }
  // 3. A small file shown in part is shown whole (its other few lines cost little and spare the model a READ);
  //    then files reached but not shown: whole when small, else their exported signatures in the map.
  for (const file of shown.values()) {
    const text = textOf(file.path);
    // A test file gives its failing test and helpers only (the rule): never upgraded to whole.
    if (text === null || isWhole(file) || input.isProtected(file.path) || estimateTokens(text) > WHOLE_FILE_TOKENS) continue;
    const whole = wholeFile({ path: file.path, score: file.regions[0]?.score ?? 0, lines: [], symbols: [] }, text);
    if (budget.take(Math.max(0, cost(whole) - file.regions.reduce((n, r) => n + cost(r), 0)))) file.regions = [whole];
  }
  const pending: Candidate[] = [];
  for (const c of candidates.filter((x) => !shown.has(x.path))) {
    const text = textOf(c.path);
    if (text === null) continue;
    if (c.lines.length || estimateTokens(text) > WHOLE_FILE_TOKENS || !show(c, text, [wholeFile(c, text)]).length) pending.push(c);
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

function wholeFile(c: Candidate, text: string): CodeRegion {
  return { path: c.path, startLine: 1, endLine: lineCount(text), kind: 'file', text: text.split('\n').slice(0, lineCount(text)).join('\n'), score: c.score };
}

async function regionsFor(c: Candidate, text: string, reader: CodeReader | undefined): Promise<CodeRegion[]> {
  const cut = reader ? await reader.regions(c.path, c.lines) : [];
  if (cut.length) return cut.map((r) => ({ ...r, score: c.score }));
  // No grammar or no parse: the lines around each ranked line, overlapping windows joined.
  const lines = text.split('\n');
  const windows: Array<[number, number]> = [];
  for (const line of [...c.lines].sort((a, b) => a - b)) {
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
  constructor(readonly limit: number) {}
  take(tokens: number): boolean {
    if (this.used + tokens > this.limit) return false;
    this.used += tokens;
    return true;
  }
  left(): number {
    return this.limit - this.used;
  }
  force(tokens: number): void {
    this.used += tokens;
  }
  give(tokens: number): void {
    this.used -= tokens;
  }
}
