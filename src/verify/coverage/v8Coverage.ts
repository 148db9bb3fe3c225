// What node-based test processes executed, read from the files NODE_V8_COVERAGE makes each of them write at exit:
// V8's block counts (character offsets of each function and block) mapped to the lines of the file on disk. One
// process is one run unit (node --test runs a process per test file; mocha runs them all in one).
import * as fs from 'fs';
import * as path from 'path';
import { fileURLToPath } from 'url';
import type { CoverageUnit } from './ochiai';

interface V8Range { startOffset: number; endOffset: number; count: number }
interface V8Script { url: string; functions: Array<{ ranges: V8Range[] }> }

/** A line that holds nothing a test can execute (blank, a lone brace, a comment line) is never a hint. */
const NOTHING_TO_RUN = /^\s*(?:[{}()[\];,]*|\/\/.*|\/?\*.*)\s*$/;

/**
 * One unit per process that executed workspace code, with the lines it executed in the workspace's own files
 * (never node_modules, never a file outside `cwd`). `failed` decides each unit's verdict from the paths it loaded.
 */
export function readV8Coverage(dir: string, cwd: string, failed: (paths: ReadonlySet<string>) => boolean): CoverageUnit[] {
  const units: CoverageUnit[] = [];
  const sources = new Map<string, SourceLines | null>();
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return [];
  }
  for (const name of names) {
    let scripts: V8Script[];
    try {
      scripts = (JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as { result?: V8Script[] }).result ?? [];
    } catch {
      continue; // a process killed while writing: its file says nothing
    }
    const lines = new Map<string, Set<number>>();
    for (const script of scripts) {
      const rel = workspacePath(script.url, cwd);
      if (!rel) continue;
      if (!sources.has(rel)) sources.set(rel, sourceLines(path.join(cwd, rel)));
      const source = sources.get(rel);
      if (!source) continue;
      const executed = executedLines(source, script.functions.flatMap((f) => f.ranges));
      if (executed.size) lines.set(rel, executed);
    }
    if (lines.size) units.push({ failed: failed(new Set(lines.keys())), lines });
  }
  return units;
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
interface SourceLines { starts: number[]; firstCode: number[] }

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
  return { starts, firstCode };
}

/**
 * A line's count is that of the innermost range holding its first character of code (V8 nests block ranges inside
 * their function's): ranges are applied from the widest to the narrowest, each overwriting the lines it holds.
 */
export function executedLines(source: SourceLines, ranges: readonly V8Range[]): Set<number> {
  const counts = new Array<number>(source.starts.length).fill(0);
  const byWidth = [...ranges].sort((a, b) => (b.endOffset - b.startOffset) - (a.endOffset - a.startOffset));
  for (const r of byWidth) {
    for (let i = lineAt(source.starts, r.startOffset); i < source.starts.length && source.starts[i] < r.endOffset; i++) {
      const code = source.firstCode[i];
      if (code >= r.startOffset && code < r.endOffset) counts[i] = r.count;
    }
  }
  const executed = new Set<number>();
  counts.forEach((c, i) => {
    if (c > 0 && source.firstCode[i] >= 0) executed.add(i + 1);
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
