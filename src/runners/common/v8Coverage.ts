// What node-based test processes executed, read from the files NODE_V8_COVERAGE makes each of them write at exit:
// V8's block counts (character offsets of each function and block) mapped to the lines of the file on disk. One
// process is one run unit (node --test runs a process per test file; mocha runs them all in one).
import * as fs from 'fs';
import * as path from 'path';
import { fileURLToPath, pathToFileURL } from 'url';
import { TraceMap, eachMapping } from '@jridgewell/trace-mapping';
import type { CoverageUnit } from '../runner';

interface V8Range { startOffset: number; endOffset: number; count: number }
interface V8Script { url: string; functions: Array<{ ranges: V8Range[] }> }
/** What Node keeps of a module's source map when NODE_V8_COVERAGE is set (a loader such as tsx inlines one). */
interface CachedMap { lineLengths?: number[]; data?: unknown }

/** Files a loader must have compiled: without their source map, V8's offsets do not fall on the file on disk. */
const COMPILED = /\.(?:[cm]?tsx?|jsx)$/;

/** A line that holds nothing a test can execute (blank, a lone brace, a comment line) is never a hint. */
const NOTHING_TO_RUN = /^\s*(?:[{}()[\];,]*|\/\/.*|\/?\*.*)\s*$/;

/**
 * One unit per process that executed workspace code, with the lines it executed in the workspace's own files
 * (never node_modules, never a file outside `cwd`). `failed` decides each unit's verdict from the paths it loaded.
 */
export function readV8Coverage(dir: string, workspace: string, failed: (paths: ReadonlySet<string>) => boolean): CoverageUnit[] {
  // Node names modules by their real path: a workspace reached through a symlink is compared as the real one.
  const cwd = realPath(workspace);
  const units: CoverageUnit[] = [];
  const sources = new Map<string, SourceLines | null>();
  const workspaceUrl = pathToFileURL(cwd).href;
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return [];
  }
  for (const name of names) {
    let file: { result?: V8Script[]; 'source-map-cache'?: Record<string, CachedMap> };
    try {
      const text = fs.readFileSync(path.join(dir, name), 'utf8');
      // npm, npx and the runner's own parent process write megabytes about files that are not the workspace's.
      if (!text.includes(workspaceUrl)) continue;
      file = JSON.parse(text);
    } catch {
      continue; // a process killed while writing: its file says nothing
    }
    const maps = file['source-map-cache'] ?? {};
    const lines = new Map<string, Set<number>>();
    const repeated = new Map<string, Set<number>>();
    const add = (rel: string, counts: ReadonlyMap<number, number>): void => {
      for (const [line, count] of counts) {
        if (!lines.has(rel)) lines.set(rel, new Set());
        lines.get(rel)!.add(line);
        if (count < 2) continue;
        if (!repeated.has(rel)) repeated.set(rel, new Set());
        repeated.get(rel)!.add(line);
      }
    };
    for (const script of file.result ?? []) {
      const ranges = script.functions.flatMap((f) => f.ranges);
      const map = maps[script.url];
      if (map?.data && map.lineLengths) {
        for (const [rel, executed] of mappedLines(map, script.url, ranges, cwd, sources)) add(rel, executed);
        continue;
      }
      const rel = workspacePath(script.url, cwd);
      if (!rel || COMPILED.test(rel)) continue;
      const source = sourceOf(rel, cwd, sources);
      // The script's own range spans the code V8 ran: another length means a loader rewrote the file (babel's
      // register hook) or it changed since, and its offsets would fall on the wrong lines.
      if (source && scriptLength(ranges) === source.length) add(rel, executedLines(source, ranges));
    }
    if (lines.size) units.push({ failed: failed(new Set(lines.keys())), lines, repeated });
  }
  return units;
}

function realPath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

function sourceOf(rel: string, cwd: string, sources: Map<string, SourceLines | null>): SourceLines | null {
  if (!sources.has(rel)) sources.set(rel, sourceLines(path.join(cwd, rel)));
  return sources.get(rel) ?? null;
}

/**
 * A compiled module (TypeScript through tsx or ts-node, JSX): each source-map segment is a place in the code V8 ran;
 * the original line of a segment whose innermost range ran was executed.
 */
function mappedLines(map: CachedMap, url: string, ranges: readonly V8Range[], cwd: string, sources: Map<string, SourceLines | null>): Map<string, Map<number, number>> {
  const out = new Map<string, Map<number, number>>();
  let trace: TraceMap;
  try {
    trace = new TraceMap(map.data as ConstructorParameters<typeof TraceMap>[0], url);
  } catch {
    return out;
  }
  const starts: number[] = [];
  let at = 0;
  for (const len of map.lineLengths!) {
    starts.push(at);
    at += len + 1;
  }
  const narrowFirst = [...ranges].sort((a, b) => (a.endOffset - a.startOffset) - (b.endOffset - b.startOffset));
  const countAt = (offset: number): number => narrowFirst.find((r) => r.startOffset <= offset && offset < r.endOffset)?.count ?? 0;
  const relOf = new Map<string, string | null>();
  // Each original line is decided by its first segment (the line's first code), as a file on disk is by its first
  // character of code: a later segment may be the compiler's (an export list naming a function that never ran).
  const first = new Map<string, { column: number; count: number }>();
  eachMapping(trace, (m) => {
    if (m.source === null || m.originalLine === null || m.generatedLine > starts.length) return;
    if (!relOf.has(m.source)) relOf.set(m.source, workspacePath(m.source, cwd));
    const rel = relOf.get(m.source);
    if (!rel) return;
    const key = `${rel}\n${m.originalLine}`;
    const seen = first.get(key);
    if (seen && seen.column <= m.originalColumn) return;
    first.set(key, { column: m.originalColumn, count: countAt(starts[m.generatedLine - 1] + m.generatedColumn) });
  });
  for (const [key, { count }] of first) {
    if (count === 0) continue;
    const [rel, lineText] = key.split('\n');
    const line = Number(lineText);
    const source = sourceOf(rel, cwd, sources);
    if (source && source.firstCode[line - 1] === -1) continue; // a brace or comment line in the original
    if (!out.has(rel)) out.set(rel, new Map());
    out.get(rel)!.set(line, count);
  }
  return out;
}

function workspacePath(url: string, cwd: string): string | null {
  if (!url.startsWith('file://')) return null;
  let file: string;
  try {
    file = fileURLToPath(url);
  } catch {
    return null;
  }
  const rel = path.relative(cwd, file);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(path.sep);
  if (parts.includes('node_modules') || parts.some((p) => p.startsWith('.'))) return null;
  return parts.join('/');
}

/** Each line's start offset and the offset of its first character that is not white space (-1: nothing to run). */
interface SourceLines { starts: number[]; firstCode: number[]; /** In UTF-16 code units, as V8 counts. */ length: number }

function scriptLength(ranges: readonly V8Range[]): number {
  let end = 0;
  for (const r of ranges) if (r.startOffset === 0 && r.endOffset > end) end = r.endOffset;
  return end;
}

function sourceLines(file: string): SourceLines | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  // V8 counts in UTF-16 code units, as JavaScript strings do; a byte-order mark is not part of the script.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const starts: number[] = [];
  const firstCode: number[] = [];
  let at = 0;
  for (const line of text.split('\n')) {
    starts.push(at);
    const lead = line.length - line.trimStart().length;
    firstCode.push(NOTHING_TO_RUN.test(line) ? -1 : at + lead);
    at += line.length + 1;
  }
  return { starts, firstCode, length: text.length };
}

/**
 * A line's count is that of the innermost range holding its first character of code (V8 nests block ranges inside
 * their function's): ranges are applied from the widest to the narrowest, each overwriting the lines it holds.
 */
export function executedLines(source: SourceLines, ranges: readonly V8Range[]): Map<number, number> {
  const counts = new Array<number>(source.starts.length).fill(0);
  const byWidth = [...ranges].sort((a, b) => (b.endOffset - b.startOffset) - (a.endOffset - a.startOffset));
  for (const r of byWidth) {
    for (let i = lineAt(source.starts, r.startOffset); i < source.starts.length && source.starts[i] < r.endOffset; i++) {
      const code = source.firstCode[i];
      if (code >= r.startOffset && code < r.endOffset) counts[i] = r.count;
    }
  }
  const executed = new Map<number, number>();
  counts.forEach((c, i) => {
    if (c > 0 && source.firstCode[i] >= 0) executed.set(i + 1, c);
  });
  return executed;
}

/** The index of the line holding `offset` (binary search over the line starts). */
function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
