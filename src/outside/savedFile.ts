// One file outside the snapshotted tree, as it was before an agent ran: its bytes (in memory or as a copy on disk)
// when they fit the limits, so a change can be put back exactly; otherwise only its stat, so a change is seen.
import { createHash } from 'node:crypto';
import { promises as fsp, type Stats } from 'node:fs';
import * as path from 'node:path';
import { tempSiblingFor } from '../base/tempSibling';

export type Change = 'created' | 'changed' | 'deleted';

export interface SavedFile {
  abs: string;
  /** absent: nothing was there; file/link: saved; unsaved: there, but too big (or of a kind) to keep. */
  kind: 'absent' | 'file' | 'link' | 'unsaved';
  stat: string;
  mode?: number;
  bytes?: Buffer;
  /** Where the bytes were copied, when they are kept on disk rather than in memory. */
  copy?: string;
  hash?: string;
  link?: string;
  /** The real path of the folder it lives in (or would): a restore never writes through a folder swapped for a link. */
  folder: string;
  /** Why an unsaved file cannot be put back, in a few words. */
  why?: string;
}

/** How many bytes may still be kept; each saved file takes its share. */
export class SaveBudget {
  private left: number;

  constructor(readonly total: number, readonly perFile: number) {
    this.left = total;
  }

  /** Takes a file's share; returns why it cannot be kept, or null. */
  take(size: number): string | null {
    if (size > this.perFile) return `larger than the ${mb(this.perFile)} Greenloop saves per file`;
    if (size > this.left) return `past the ${mb(this.total)} Greenloop saves in all`;
    this.left -= size;
    return null;
  }

  get spent(): boolean {
    return this.left <= 0;
  }
}

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export function statKey(st: Stats): string {
  const type = st.isFile() ? 'f' : st.isSymbolicLink() ? 'l' : st.isDirectory() ? 'd' : 'o';
  return `${type}:${st.size}:${st.mtimeMs}:${st.ino}:${st.mode}`;
}

async function lstatOrNull(abs: string): Promise<Stats | null> {
  try {
    return await fsp.lstat(abs);
  } catch {
    return null;
  }
}

/** The real path of a folder, or where it would be if it were made now (its nearest existing parent's, and on). */
async function realOrExpected(dir: string): Promise<string> {
  try {
    return await fsp.realpath(dir);
  } catch {
    const parent = path.dirname(dir);
    return parent === dir ? dir : path.join(await realOrExpected(parent), path.basename(dir));
  }
}

/**
 * Makes the folder be where it was, one level at a time, as long as each level above is where it was. A link put
 * where a real folder was is removed (never what it points to) and the folder made again.
 */
async function sameFolder(dir: string, expected: string): Promise<boolean> {
  if ((await fsp.realpath(dir).catch(() => null)) === expected) return true;
  const parent = path.dirname(dir);
  if (parent === dir || path.basename(dir) !== path.basename(expected) || !(await sameFolder(parent, path.dirname(expected)))) return false;
  const st = await lstatOrNull(dir);
  if (st && !st.isSymbolicLink()) return false;
  if (st) await fsp.unlink(dir);
  await fsp.mkdir(dir).catch(() => undefined);
  return (await fsp.realpath(dir).catch(() => null)) === expected;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Saves one path; with `copy`, its bytes go to a file there instead of staying in memory. */
export async function saveFile(abs: string, budget: SaveBudget, opts: { copy?: { dir: string; name: string }; folder?: string } = {}): Promise<SavedFile> {
  const { copy } = opts;
  const st = await lstatOrNull(abs);
  const folder = opts.folder ?? (await realOrExpected(path.dirname(abs)));
  if (!st) return { abs, kind: 'absent', stat: 'absent', folder };
  const stat = statKey(st);
  if (st.isSymbolicLink()) return { abs, kind: 'link', stat, link: await fsp.readlink(abs), folder };
  if (!st.isFile()) return { abs, kind: 'unsaved', stat, folder, why: 'not a regular file' };
  const tooBig = budget.take(st.size);
  if (tooBig) return { abs, kind: 'unsaved', stat, folder, why: tooBig };
  const bytes = await fsp.readFile(abs);
  const saved: SavedFile = { abs, kind: 'file', stat, mode: st.mode & 0o7777, hash: sha(bytes), folder };
  if (copy) {
    saved.copy = path.join(copy.dir, copy.name);
    await fsp.writeFile(saved.copy, bytes);
  } else {
    saved.bytes = bytes;
  }
  return saved;
}

/**
 * What happened to a saved path since. Small files kept in memory are compared by content (a rewrite that kept
 * the size and time is still seen); copies on disk by their stat first, then content.
 */
export async function changeOf(saved: SavedFile): Promise<Change | null> {
  const st = await lstatOrNull(saved.abs);
  if (!st) return saved.kind === 'absent' ? null : 'deleted';
  if (saved.kind === 'absent') return 'created';
  const stat = statKey(st);
  if (saved.kind === 'unsaved') return stat === saved.stat ? null : 'changed';
  if (saved.kind === 'link') return st.isSymbolicLink() && (await fsp.readlink(saved.abs)) === saved.link ? null : 'changed';
  if (!st.isFile() || (st.mode & 0o7777) !== saved.mode) return 'changed';
  if (saved.copy && stat === saved.stat) return null;
  return sha(await fsp.readFile(saved.abs)) === saved.hash ? null : 'changed';
}

/** Puts a saved path back as it was (removing what was created). Returns null when done, else why it could not. */
export async function putBack(saved: SavedFile): Promise<string | null> {
  if (saved.kind === 'unsaved') return saved.why ?? 'not saved';
  if (saved.kind === 'absent' && !(await lstatOrNull(saved.abs))) return null;
  if (!(await sameFolder(path.dirname(saved.abs), saved.folder))) return 'its folder was replaced by a link';
  if (saved.kind === 'absent') {
    const st = await lstatOrNull(saved.abs);
    if (st?.isDirectory()) return 'a folder was created there';
    await fsp.rm(saved.abs, { force: true });
    return null;
  }
  const tmp = tempSiblingFor(saved.abs);
  try {
    if (saved.kind === 'link') {
      await fsp.symlink(saved.link!, tmp);
    } else {
      await fsp.writeFile(tmp, saved.bytes ?? (await fsp.readFile(saved.copy!)), { mode: saved.mode });
      await fsp.chmod(tmp, saved.mode!);
    }
    const now = await lstatOrNull(saved.abs);
    if (now?.isDirectory()) throw new Error('a folder was created there');
    // rename replaces a link or file put there in its place, never what a link points to.
    await fsp.rename(tmp, saved.abs);
    return null;
  } catch (err) {
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    return (err as Error).message;
  }
}

/** Removes `dir` and the folders above it while they are empty, never `root` itself nor anything outside it. */
export async function removeEmptyFolders(root: string, dir: string): Promise<void> {
  for (let d = dir; d.startsWith(`${root}${path.sep}`); d = path.dirname(d)) {
    const st = await lstatOrNull(d);
    if (!st?.isDirectory() || (await fsp.readdir(d).catch(() => ['?'])).length > 0) return;
    await fsp.rmdir(d).catch(() => undefined);
  }
}
