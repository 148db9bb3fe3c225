// The only way import resolution touches the disk: every file read passes the caller's gate (the path policy: inside
// the workspace after links, a regular file, not .git, not excluded) and, when the caller can tell, is not git-ignored;
// nothing under node_modules is ever looked at, so dependencies are never "reached".
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The path policy's verdict on reading a workspace-relative path (core/edits/pathPolicy `checkReadable`). */
export type ReadGate = (rel: string) => { ok: true; abs: string; realRel?: string } | { ok: false; reason: string };

/** The paths among these (real, workspace-relative) that git ignores (SnapshotStore `unrecorded`): never read. */
export type IgnoredCheck = (paths: string[]) => Promise<string[]>;

/** Biggest file whose imports are read: a generated bundle past it says nothing about where a test goes. */
const MAX_SOURCE_BYTES = 1024 * 1024;

export class WorkspaceFiles {
  private readonly texts = new Map<string, string | null>();
  private readonly listings = new Map<string, string[]>();
  /** Real path → whether git ignores it, for the paths asked so far. */
  private readonly ignoredByPath = new Map<string, boolean>();
  /** Paths the gate passed that still wait for the ignore check: unreadable until settle() asks git about them. */
  private readonly pending = new Set<string>();

  constructor(readonly root: string, private readonly gate: ReadGate, private readonly ignored?: IgnoredCheck) {}

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

  /**
   * The file's text, or null when the gate refuses it, git ignores it, it is binary or too big, or it is not there.
   * A file the ignore check has not seen yet reads as absent until settle(): callers resolve again after it.
   */
  read(rel: string): string | null {
    const n = this.norm(rel);
    if (n === null) return null;
    if (this.texts.has(n)) return this.texts.get(n)!;
    const check = this.gate(n);
    if (!check.ok) {
      this.texts.set(n, null);
      return null;
    }
    const real = check.realRel ?? n;
    if (this.ignored && !this.ignoredByPath.has(real)) {
      this.pending.add(real);
      return null;
    }
    const text = this.ignoredByPath.get(real) ? null : boundedText(check.abs);
    this.texts.set(n, text);
    return text;
  }

  /** Asks git about the paths read since the last call, in one batch; false when there was nothing to ask. */
  async settle(): Promise<boolean> {
    if (!this.ignored || this.pending.size === 0) return false;
    const asked = [...this.pending];
    this.pending.clear();
    let ignored: Set<string>;
    try {
      ignored = new Set(await this.ignored(asked));
    } catch {
      ignored = new Set(asked); // git could not tell: read none of them rather than a secret
    }
    for (const p of asked) this.ignoredByPath.set(p, ignored.has(p));
    return true;
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
