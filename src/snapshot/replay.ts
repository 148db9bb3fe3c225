// One attempt's change carried over onto another state, in git objects only: what lets the loop judge the latest edit
// on top of the best state after an earlier edit, judged by its failing tests alone, turned out to break something.
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitRunner, joinZ } from './gitRunner';
import { entriesOf, type TreeEntry } from './writeTreeFiles';

export interface ReplayPlan {
  /** What each path the change touched becomes on top of `onto` (null: removed). */
  entries: Map<string, TreeEntry | null>;
  conflicts: string[];
}

const same = (a: TreeEntry | null, b: TreeEntry | null): boolean => (a === null ? b === null : b !== null && a.blob === b.blob && a.mode === b.mode);

/** Per path: the change's own result where `onto` holds what it started from, else git's own three-way text merge. */
export async function planReplay(git: GitRunner, trees: { from: string; to: string; onto: string }, paths: readonly string[]): Promise<ReplayPlan> {
  const [base, theirs, ours] = await Promise.all([entriesOf(git, trees.from, paths), entriesOf(git, trees.to, paths), entriesOf(git, trees.onto, paths)]);
  const entries = new Map<string, TreeEntry | null>();
  const conflicts: string[] = [];
  for (const p of paths) {
    const b = base.get(p) ?? null;
    const t = theirs.get(p) ?? null;
    const o = ours.get(p) ?? null;
    if (same(o, b)) entries.set(p, t);
    else if (same(t, b) || same(o, t)) entries.set(p, o);
    else if (b && t && o && b.mode === t.mode && t.mode === o.mode && !/^(120000|160000)$/.test(t.mode)) {
      const merged = await mergeBlobs(git, b.blob, o.blob, t.blob);
      if (merged) entries.set(p, { mode: t.mode, blob: merged });
      else conflicts.push(p);
    } else conflicts.push(p);
  }
  return { entries, conflicts };
}

/** `git merge-file` on the three texts: the merged blob, or null on a conflict (or a binary file). */
async function mergeBlobs(git: GitRunner, base: string, ours: string, theirs: string): Promise<string | null> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'greenloop-merge-'));
  try {
    const files = await Promise.all([['ours', ours], ['base', base], ['theirs', theirs]].map(async ([name, blob]) => {
      const file = path.join(dir, name);
      await fsp.writeFile(file, (await git.run(['cat-file', 'blob', blob])).stdout);
      return file;
    }));
    const okCodes = Array.from({ length: 255 }, (_, i) => i + 1);
    const r = await git.run(['merge-file', '-p', '--quiet', ...files], { okCodes });
    if (r.code !== 0) return null;
    return (await git.run(['hash-object', '-w', '--stdin'], { input: r.stdout })).stdout.toString('utf8').trim();
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/** `onto` with the planned entries, as a tree written through an index of its own (the store's stays as it is). */
export async function treeWith(git: GitRunner, onto: string, entries: Map<string, TreeEntry | null>): Promise<string> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'greenloop-replay-'));
  try {
    const own = new GitRunner({ ...git.opts, indexFile: path.join(dir, 'index') });
    await own.run(['read-tree', onto]);
    const lines = [...entries].map(([p, e]) => (e ? `${e.mode} ${e.blob}\t${p}` : `0 ${'0'.repeat(40)}\t${p}`));
    if (lines.length) await own.run(['update-index', '-z', '--index-info'], { input: joinZ(lines) });
    return (await own.text(['write-tree'])).trim();
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
