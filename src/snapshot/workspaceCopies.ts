// Copies of a recorded state, each in its own folder outside the workspace, for work that must not touch it: several
// agents editing side by side (`--candidates N`), or candidates judged side by side (`--candidates-parallel`). A copy
// is the snapshot's tree checked out through the shadow repository with an index of its own, so its snapshots are
// commits in the same store (the workspace's store can read and restore them). The project's installed dependencies
// are linked, never copied. Only one run holds a folder at a time, so every copy found when a run starts is a killed
// run's leftover and goes.
import { createHash } from 'node:crypto';
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SnapshotStore, WorkspaceCopies, WorkspaceCopy } from '../ports/snapshots';
import { GitRunner, splitZ } from './gitRunner';
import { GitSnapshotStore } from './gitSnapshotStore';

/**
 * Installed dependencies, linked into every copy when the snapshots do not record them: they do not depend on the
 * candidate's edit, and copying a node_modules or a virtualenv would cost more than the attempt. Build outputs
 * (`target`, `build`, `dist`) are not among them: they are made from the very sources a candidate changes, and two
 * copies compiling into one shared folder would test each other's classes — each copy builds its own.
 */
export const LINKED_FOLDERS: readonly string[] = ['node_modules', '.venv', 'venv', 'vendor'];

/** Copy folders and the refs of their snapshots carry this mark after the run's id. */
const COPY_MARK = '.copy';

export interface ShadowCopiesOptions {
  git: GitRunner;
  workspace: string;
  storeDir: string;
  runId: string;
  warn: (message: string) => void;
}

/** Where one workspace's copies live: under the system's temp folder, never inside the workspace its tests scan. */
export function copiesRoot(storeDir: string): string {
  return path.join(os.tmpdir(), 'greenloop-copies', createHash('sha256').update(storeDir).digest('hex').slice(0, 16));
}

export class ShadowCopies implements WorkspaceCopies {
  private seq = 0;
  private links: Promise<string[]> | null = null;

  constructor(private readonly opts: ShadowCopiesOptions) {}

  async make(snapshot: string): Promise<WorkspaceCopy> {
    const { git, storeDir, runId, warn } = this.opts;
    const name = `${runId}${COPY_MARK}${++this.seq}`;
    const root = copiesRoot(storeDir);
    const dir = path.join(root, name);
    const files = { index: `${dir}.index`, config: `${dir}.gitconfig`, exclude: `${dir}.exclude` };
    const remove = async () => {
      await fsp.rm(dir, { recursive: true, force: true, maxRetries: 3 });
      await Promise.all(Object.values(files).map((f) => fsp.rm(f, { force: true })));
      // The workspace's folder of copies goes with its last copy (rmdir refuses while another is still there).
      await fsp.rmdir(root).catch(() => undefined);
    };
    try {
      await fsp.mkdir(dir, { recursive: true });
      const tree = (await git.text(['rev-parse', '--verify', `refs/greenloop/${snapshot}^{tree}`])).trim();
      const links = await this.linkedFolders();
      // The links are the workspace's, not the copy's: its snapshots must not record them (a symbolic link named
      // node_modules escapes the `node_modules/` rule, which only matches folders).
      await fsp.writeFile(files.exclude, links.map((l) => `/${l}`).join('\n') + '\n');
      await fsp.writeFile(files.config, `[safe]\n\tdirectory = *\n[core]\n\texcludesFile = ${files.exclude.replace(/\\/g, '/')}\n`);
      const copyGit = new GitRunner({ gitDir: storeDir, workTree: dir, indexFile: files.index, globalConfig: files.config });
      await copyGit.run(['read-tree', tree]);
      await copyGit.run(['checkout-index', '--all', '--force', '-u']);
      for (const rel of links) {
        const at = path.join(dir, rel);
        if (existsSync(at)) continue;
        await fsp.mkdir(path.dirname(at), { recursive: true });
        await fsp.symlink(path.join(this.opts.workspace, rel), at, 'dir');
      }
      const snapshots: SnapshotStore & { currentTree(): Promise<string> } = new GitSnapshotStore(copyGit, dir, storeDir, files.index, name, warn);
      return { dir, snapshots, state: () => snapshots.currentTree(), remove };
    } catch (err) {
      await remove().catch(() => undefined);
      throw err;
    }
  }

  /** The ignored install folders of the workspace, at any depth; looked up once per run. */
  private linkedFolders(): Promise<string[]> {
    this.links ??= (async () => {
      // `--directory` stops at an ignored folder: git never walks into node_modules to list it.
      const out = await this.opts.git.run(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory']);
      const found: string[] = [];
      for (const entry of splitZ(out.stdout)) {
        const rel = entry.replace(/\/$/, '');
        if (!LINKED_FOLDERS.includes(path.posix.basename(rel))) continue;
        // A link to a folder counts: a worktree or a bench often links its node_modules from elsewhere.
        const st = await fsp.stat(path.join(this.opts.workspace, rel)).catch(() => null);
        if (st?.isDirectory()) found.push(rel);
      }
      return found;
    })();
    return this.links;
  }
}

/**
 * Removes what a killed run's copies left: their folders and the refs of their snapshots. Called when a run takes the
 * folder, before it makes a copy of its own; returns how many folders went.
 */
export async function removeStaleCopies(storeDir: string): Promise<number> {
  const root = copiesRoot(storeDir);
  const left = await fsp.readdir(root).catch(() => [] as string[]);
  await fsp.rm(root, { recursive: true, force: true, maxRetries: 3 });
  const refs = path.join(storeDir, 'refs', 'greenloop');
  for (const entry of await fsp.readdir(refs).catch(() => [] as string[])) {
    if (/\.copy\d+$/.test(entry)) await fsp.rm(path.join(refs, entry), { recursive: true, force: true });
  }
  return left.filter((n) => !/\.(index|gitconfig|exclude)$/.test(n)).length;
}

/** The copies of one store's states, for one run. */
export function copiesOf(store: GitSnapshotStore, warn: (message: string) => void): ShadowCopies {
  return new ShadowCopies({ git: store.git, workspace: store.workspace, storeDir: store.storeDir, runId: store.runId, warn });
}
