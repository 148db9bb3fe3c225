// Picks the source files a model needs to see: those named in failures, stack traces and type errors.
import * as fs from 'fs';
import * as path from 'path';
import type { WitnessSummary } from '../../ports/runState';
import { checkReadable } from '../edits/pathPolicy';
import type { PathPolicy } from '../edits/pathPolicy';

export interface ContextFile {
  path: string;
  content: string;
  truncated: boolean;
}

const SOURCE_PATH = /(?:^|[\s(["'`])((?:\.{0,2}\/)?(?:[\w@.-]+\/)*[\w@.-]+\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb|php|cs|swift|vue|svelte|json))(?::(\d+))?/g;

/** Paths mentioned in the witness, most relevant first (non-test sources before tests). */
export function mentionedPaths(witness: WitnessSummary, cwd: string): string[] {
  const found: string[] = [];
  const add = (p: string | undefined) => {
    if (!p) return;
    const rel = toWorkspaceRelative(p, cwd);
    if (rel && !found.includes(rel)) found.push(rel);
  };
  for (const d of witness.diagnostics) add(d.file);
  // What kept a test file from loading (a syntax error, a missing module) names the file to fix.
  for (const e of witness.loadErrors ?? []) {
    for (const m of e.message.matchAll(SOURCE_PATH)) add(m[1]);
    add(e.file);
  }
  for (const f of witness.failures) {
    for (const m of f.message.matchAll(SOURCE_PATH)) add(m[1]);
    add(f.file);
  }
  for (const m of witness.outputExcerpt.matchAll(SOURCE_PATH)) add(m[1]);
  return found;
}

const JS_IMPORT = /(?:\brequire\(\s*|\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
const PY_IMPORT = /^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))/gm;
const JS_EXTENSIONS = ['', '.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '/index.ts', '/index.js'];

/**
 * The workspace files a file imports by a relative path (JS/TS) or as a local module (Python): the code under test
 * that a failing test names, which the model needs to see to fix it.
 */
export function importedFiles(rel: string, policy: PathPolicy): string[] {
  const check = checkReadable(policy, rel);
  if (!check.ok) return [];
  const text = boundedRead(check.abs, 64 * 1024)?.toString('utf8') ?? '';
  const dir = path.posix.dirname(rel);
  const out: string[] = [];
  const exists = (candidate: string) => checkReadable(policy, candidate).ok;
  if (/\.[cm]?[jt]sx?$/.test(rel)) {
    for (const m of text.matchAll(JS_IMPORT)) {
      const base = path.posix.normalize(path.posix.join(dir, m[1]));
      // TypeScript under node16/nodenext resolution imports './money.js' for money.ts.
      const asTs = /\.[cm]?js$/.test(base) ? ['.ts', '.tsx'].map((ext) => base.replace(/\.([cm]?)js$/, ext === '.ts' ? '.$1ts' : ext)) : [];
      const found = [...JS_EXTENSIONS.map((ext) => base + ext), ...asTs].find(exists);
      if (found) out.push(found);
    }
  } else if (rel.endsWith('.py')) {
    for (const m of text.matchAll(PY_IMPORT)) {
      const mod = (m[1] ?? m[2]).replace(/\./g, '/');
      const found = [`${mod}.py`, path.posix.join(dir, `${mod}.py`), `src/${mod}.py`].find(exists);
      if (found) out.push(found);
    }
  }
  return [...new Set(out)];
}

/** At most `max` bytes of a regular file, opened without blocking (a FIFO swapped in meanwhile is refused). */
export function boundedRead(abs: string, max: number): Buffer | null {
  let fd: number | null = null;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    if (!fs.fstatSync(fd).isFile()) return null;
    const buf = Buffer.alloc(max);
    const n = fs.readSync(fd, buf, 0, max, 0);
    return buf.subarray(0, n);
  } catch {
    return null;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

function toWorkspaceRelative(p: string, cwd: string): string | null {
  const cleaned = p.replace(/^file:\/\//, '').replace(/^<workspace>\//, '');
  const abs = path.isAbsolute(cleaned) ? cleaned : path.join(cwd, cleaned);
  const rel = path.relative(cwd, abs);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  if (rel.split(path.sep).some((seg) => seg === 'node_modules' || seg === '.git')) return null;
  try {
    if (!fs.statSync(abs).isFile()) return null;
  } catch {
    return null;
  }
  return rel.split(path.sep).join('/');
}

/**
 * Reads the files in order until the budget is spent; big files are cut at perFileChars. A path goes through the
 * same policy as an edit (inside the workspace after realpath, a regular file, not .git, not excluded) and is read
 * with a bounded, non-blocking read: a name a model wrote can never pull /etc/passwd, .git/config, /dev/zero or a
 * FIFO into the next prompt.
 */
export function readContextFiles(rels: string[], policy: PathPolicy, perFileChars: number, totalChars: number, unrecorded: ReadonlySet<string> = new Set()): ContextFile[] {
  const out: ContextFile[] = [];
  let used = 0;
  for (const rel of rels) {
    if (used >= totalChars) break;
    const check = checkReadable(policy, rel);
    // A git-ignored file (.env, local settings) is not recorded by snapshots, and often holds secrets: never read.
    if (!check.ok || unrecorded.has(check.realRel)) continue;
    const raw = boundedRead(check.abs, perFileChars * 4 + 4);
    if (raw === null) continue;
    let content = raw.toString('utf8');
    if (content.includes('\u0000')) continue; // binary
    const limit = Math.min(perFileChars, totalChars - used);
    const truncated = content.length > limit;
    if (truncated) content = `${content.slice(0, limit)}\n[… file cut at ${limit} characters …]`;
    used += content.length;
    out.push({ path: rel, content, truncated });
  }
  return out;
}
