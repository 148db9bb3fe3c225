// The only way import resolution touches the disk: every file read passes the caller's gate (the path policy: inside
// the workspace after links, a regular file, not .git, not excluded, not git-ignored), and nothing under node_modules
// is ever looked at, so dependencies are never "reached".
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The path policy's verdict on reading a workspace-relative path (core/edits/pathPolicy `checkReadable`, and not ignored). */
export type ReadGate = (rel: string) => { ok: true; abs: string } | { ok: false; reason: string };

/** Biggest file whose imports are read: a generated bundle past it says nothing about where a test goes. */
const MAX_SOURCE_BYTES = 1024 * 1024;

export class WorkspaceFiles {
  private readonly texts = new Map<string, string | null>();
  private readonly listings = new Map<string, string[]>();

  constructor(readonly root: string, private readonly gate: ReadGate) {}

  /** A clean workspace-relative path (`.//a/../b.js` → `b.js`), or null for one outside the workspace or in node_modules. */
  norm(rel: string): string | null {
    const n = path.posix.normalize(rel.replace(/\\/g, '/')).replace(/^\.\//, '').replace(/\/+$/, '');
    if (n === '' || n === '.' || n === '..' || n.startsWith('../') || n.startsWith('/')) return null;
    if (n.split('/').includes('node_modules')) return null;
    return n;
  }

  isFile(rel: string): boolean {
    const n = this.norm(rel);
    return n !== null && this.read(n) !== null;
  }

  /** The file's text, or null when the gate refuses it, it is binary or too big, or it is not there. */
  read(rel: string): string | null {
    const n = this.norm(rel);
    if (n === null) return null;
    if (this.texts.has(n)) return this.texts.get(n)!;
    const check = this.gate(n);
    const text = check.ok ? boundedText(check.abs) : null;
    this.texts.set(n, text);
    return text;
  }

  /** Names of the entries of a workspace folder ('' for the root); empty when it is not one, or leaves the workspace. */
  list(relDir: string): string[] {
    const n = relDir === '' || relDir === '.' ? '' : this.norm(relDir);
    if (n === null) return [];
    const cached = this.listings.get(n);
    if (cached) return cached;
    let names: string[] = [];
    try {
      const realRoot = fs.realpathSync.native(this.root);
      const real = fs.realpathSync.native(path.join(realRoot, n));
      const back = path.relative(realRoot, real);
      if (!back.startsWith('..') && !path.isAbsolute(back)) names = fs.readdirSync(real).sort();
    } catch {
      names = [];
    }
    this.listings.set(n, names);
    return names;
  }

  isDir(relDir: string): boolean {
    return this.list(relDir).length > 0;
  }
}

/** A regular file's text, opened without blocking (a FIFO is refused, never waited on). */
function boundedText(abs: string): string | null {
  let fd: number | null = null;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_SOURCE_BYTES) return null;
    const buf = Buffer.alloc(stat.size);
    const n = fs.readSync(fd, buf, 0, stat.size, 0);
    const text = buf.subarray(0, n).toString('utf8');
    return text.includes('\u0000') ? null : text;
  } catch {
    return null;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}
