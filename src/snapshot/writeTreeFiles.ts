// Puts some workspace paths back to their content in a recorded tree, one temp file plus rename per path (never
// `git restore`, which writes in place): a kill at any moment leaves each file either as it was or as restored.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { tempSiblingFor } from '../base/tempSibling';
import { splitZ, type GitRunner } from './gitRunner';

export interface TreeEntry {
  mode: string;
  blob: string;
}

/** What each path becomes: its blob and mode in the tree, or null when the tree does not hold it (it is removed). */
export async function entriesOf(git: GitRunner, tree: string, rels: readonly string[]): Promise<Map<string, TreeEntry | null>> {
  const wanted = new Set(rels);
  const out = new Map<string, TreeEntry | null>(rels.map((r) => [r, null]));
  // The whole listing, filtered here: any number of paths, never a command line too long.
  for (const line of splitZ((await git.run(['ls-tree', '-r', '-z', tree])).stdout)) {
    const tab = line.indexOf('\t');
    const rel = line.slice(tab + 1);
    if (!wanted.has(rel)) continue;
    const [mode, type, blob] = line.slice(0, tab).split(' ');
    if (type === 'blob') out.set(rel, { mode, blob });
  }
  return out;
}

/** Blob contents in one `cat-file --batch` call. */
export async function readBlobs(git: GitRunner, blobs: readonly string[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const unique = [...new Set(blobs)];
  if (unique.length === 0) return out;
  const buf = (await git.run(['cat-file', '--batch'], { input: `${unique.join('\n')}\n` })).stdout;
  let at = 0;
  while (at < buf.length) {
    const eol = buf.indexOf(0x0a, at);
    const [oid, type, size] = buf.subarray(at, eol).toString('latin1').split(' ');
    if (type !== 'blob') throw new Error(`the snapshot store lacks object ${oid}`);
    const start = eol + 1;
    out.set(oid, buf.subarray(start, start + Number(size)));
    at = start + Number(size) + 1;
  }
  return out;
}

/**
 * Writes `plan` into the workspace: each path gets its tree content (temp file beside it, then rename) or is
 * removed; folders left empty by a removal go too, as git would leave them.
 */
export async function writeTreeFiles(git: GitRunner, root: string, plan: Map<string, TreeEntry | null>): Promise<void> {
  const blobs = await readBlobs(git, [...plan.values()].flatMap((e) => (e ? [e.blob] : [])));
  // Removals first: a file the loop created where the tree has a folder must be gone before that folder is made.
  for (const [rel, entry] of plan) if (entry === null) await removeFile(root, path.join(root, rel));
  for (const [rel, entry] of plan) {
    if (entry === null) continue;
    const abs = path.join(root, rel);
    await makeRoomFor(root, rel);
    const tmp = tempSiblingFor(abs);
    const content = blobs.get(entry.blob)!;
    try {
      if (entry.mode === '120000') await fsp.symlink(content.toString('utf8'), tmp);
      else await fsp.writeFile(tmp, content, { mode: entry.mode === '100755' ? 0o755 : 0o644 });
      await fsp.rename(tmp, abs);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }
}

async function removeFile(root: string, abs: string): Promise<void> {
  const st = await fsp.lstat(abs).catch(() => null);
  if (!st || st.isDirectory()) return;
  await fsp.rm(abs, { force: true });
  for (let dir = path.dirname(abs); dir.startsWith(`${root}${path.sep}`); dir = path.dirname(dir)) {
    if ((await fsp.readdir(dir).catch(() => ['?'])).length > 0) break;
    await fsp.rmdir(dir).catch(() => undefined);
  }
}

/**
 * Makes the folders of a path to restore. Never through a link (that could write outside the workspace) and never
 * over a file or a non-empty folder someone else put there: those stop the restore with a sentence.
 */
async function makeRoomFor(root: string, rel: string): Promise<void> {
  const segs = rel.split('/');
  let dir = root;
  for (const seg of segs.slice(0, -1)) {
    dir = path.join(dir, seg);
    const st = await fsp.lstat(dir).catch(() => null);
    if (!st) await fsp.mkdir(dir);
    else if (!st.isDirectory()) throw new Error(`${path.relative(root, dir)} is ${st.isSymbolicLink() ? 'a link' : 'a file'} where the snapshot has a folder`);
  }
  const here = await fsp.lstat(path.join(root, rel)).catch(() => null);
  if (here?.isDirectory()) await fsp.rmdir(path.join(root, rel)); // only an empty one goes; ENOTEMPTY stops the restore
}
