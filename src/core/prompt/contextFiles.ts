// The files a failure names and the local files a file imports: where the prompt's code context starts.
import * as fs from 'fs';
import * as path from 'path';
import { checkReadable } from '../edits/pathPolicy';
import type { PathPolicy } from '../edits/pathPolicy';

/** A source path in test output, with the line a stack frame or error names (`lib/a.js:12:5`). */
export const SOURCE_PATH = /(?:^|[\s(["'`])((?:\.{0,2}\/)?(?:[\w@.-]+\/)*[\w@.-]+\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb|php|cs|cpp|cxx|cc|c|hpp|hxx|hh|h|swift|vue|svelte|json)(?!\w))(?::(\d+))?/g;

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

/** A path as test output wrote it, relative to the workspace; null outside it, in node_modules or .git, or no file. */
export function toWorkspaceRelative(p: string, cwd: string): string | null {
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
