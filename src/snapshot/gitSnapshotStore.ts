// SnapshotStore over a private shadow repository: `--git-dir=<state>/snapshots/<key> --work-tree=<workspace>`
// with its own index. Snapshots are commits on refs/greenloop/<runId>/<n>, so runs share objects and deleting
// a run's refs lets gc prune what only that run used. The user's .git is never read for state nor written.
import { newRunId } from '../base/runId';
import { createHash } from 'node:crypto';
import { existsSync, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { StateDirLost, type PlannedRestore, type Replayed, type SnapshotRef, type SnapshotStore } from '../ports/snapshots';
import { planReplay, treeWith } from './replay';
import { entriesOf, writeTreeFiles } from './writeTreeFiles';
import { DEFAULT_SNAPSHOT_EXCLUDES } from '../shared/config';
import { writeCommit } from './commitObject';
import { addAll, captureTree, captureWritten, type CaptureContext } from './captureTree';
import { GitError, joinZ, splitZ, type GitRunner } from './gitRunner';
import { openShadowRepo } from './shadowRepo';
import { canonicalWorkspace, defaultStateDir, shadowDirFor } from '../base/stateDir';

export interface SnapshotStoreOptions {
  workspace: string;
  /** Defaults to the OS state directory (see defaultStateDir). */
  stateDir?: string;
  /** minimatch globs, workspace-relative; defaults to DEFAULT_SNAPSHOT_EXCLUDES. */
  excludes?: string[];
  runId?: string;
  onWarning?: (message: string) => void;
  /** The run that last held this folder is known dead: its locks in the store may go at once. */
  locksOwnerGone?: boolean;
}

const queues = new Map<string, Promise<unknown>>();
/** Past this many ignored files (a huge node_modules), looking at each one per attempt costs more than it tells. */
const MAX_FINGERPRINT_FILES = 200_000;
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const SNAPSHOT_ID = /^([A-Za-z0-9][A-Za-z0-9._-]{0,99})\/(\d{1,9})$/;

export async function openSnapshotStore(opts: SnapshotStoreOptions): Promise<GitSnapshotStore> {
  let workspace: string;
  try {
    workspace = canonicalWorkspace(opts.workspace);
    if (!(await fsp.stat(workspace)).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new Error(`The workspace folder ${opts.workspace} does not exist or is not a folder; open an existing folder and try again.`);
  }
  const runId = opts.runId ?? newRunId();
  if (!RUN_ID.test(runId)) {
    throw new Error(`The run id "${runId}" is not usable; use letters, digits, ".", "_" or "-" (at most 100).`);
  }
  const warn = opts.onWarning ?? ((m: string) => process.emitWarning(m));
  const gitDir = shadowDirFor(opts.stateDir ?? defaultStateDir(), workspace);
  const repo = await openShadowRepo(workspace, gitDir, opts.excludes ?? DEFAULT_SNAPSHOT_EXCLUDES, warn, opts.locksOwnerGone, `refs/greenloop/${runId}/`);
  const store = new GitSnapshotStore(repo.git, workspace, gitDir, repo.indexFile, runId, warn, repo.stateDirRel);
  await store.init(repo.excludesChanged, repo.refs);
  return store;
}


export class GitSnapshotStore implements SnapshotStore {
  private counter = 0;
  private readonly trees = new Map<string, string>();
  private readonly capture: CaptureContext;

  constructor(
    /** The shadow repository over the workspace (copies of its states are checked out through it). */
    readonly git: GitRunner,
    readonly workspace: string,
    /** The shadow repository (under the state dir); shown to people who want to look inside. */
    readonly storeDir: string,
    indexFile: string,
    readonly runId: string,
    warn: (msg: string) => void,
    /** Greenloop's own state folder when it sits inside the workspace: its files are never the code's. */
    private readonly stateDirRel: string | null = null,
  ) {
    this.capture = { git, workspace, indexFile, excludeFile: path.join(storeDir, 'info', 'exclude'), warn };
  }

  /** @internal called once by openSnapshotStore. */
  async init(excludesChanged: boolean, refs: readonly string[]): Promise<void> {
    for (const r of refs) {
      const n = Number(r.slice(r.lastIndexOf('/') + 1));
      if (Number.isInteger(n) && n > this.counter) this.counter = n;
    }
    // Files recorded before a new exclude rule would otherwise stay in every later snapshot.
    if (excludesChanged) await this.untrackIgnored().catch(() => undefined);
  }

  snapshot(label: string, written?: readonly string[]): Promise<SnapshotRef> {
    return this.serial(async () => {
      const tree = written ? await captureWritten(this.capture, written.map(toGitPath).filter(Boolean)) : await captureTree(this.capture);
      const commit = await writeCommit(this.storeDir, tree, label);
      const n = ++this.counter;
      const id = `${this.runId}/${n}`;
      await this.writeRef(id, commit);
      this.trees.set(id, tree);
      return { id, tree };
    });
  }

  /** The whole recorded tree back: every path that differs from the snapshot now. */
  async restore(id: string): Promise<void> {
    await this.restorePaths(id, await this.changedSince(id));
  }

  restorePaths(id: string, paths: readonly string[], beforeWrite?: (plan: PlannedRestore[]) => Promise<void>): Promise<void> {
    const rels = [...new Set(paths.map(toGitPath).filter(Boolean))];
    if (rels.length === 0) return Promise.resolve();
    return this.serial(async () => {
      const target = await this.treeOf(id);
      const plan = await this.guard([id], () => entriesOf(this.git, target, rels));
      await beforeWrite?.([...plan].map(([p, e]) => ({ path: p, blob: e ? e.blob : null })));
      try {
        await writeTreeFiles(this.git, this.workspace, plan);
      } catch (e) {
        await this.checkStillStored([id]);
        const why = e instanceof GitError ? e.stderr.trim().split('\n')[0] : (e as Error).message;
        throw new Error(`Restoring ${rels.length} file${rels.length === 1 ? '' : 's'} from snapshot ${id} did not finish (${why}); check the files' permissions and restore again.`);
      }
    });
  }

  changedSince(id: string): Promise<string[]> {
    return this.serial(async () => {
      const from = await this.treeOf(id);
      return this.guard([id], async () => {
        await addAll(this.capture);
        const out = await this.git.run(['diff-index', '--cached', '-z', '--name-only', '--no-renames', from]);
        return splitZ(out.stdout);
      });
    });
  }

  changedBetween(fromId: string, toId: string): Promise<string[]> {
    return this.serial(() => this.guard([fromId, toId],
      async () => this.changedTrees(await this.treeOf(fromId), await this.treeOf(toId))));
  }

  diff(fromId: string, toId: string, paths?: string[]): Promise<string> {
    return this.serial(() => this.guard([fromId, toId], async () => {
      const args = ['diff-tree', '-r', '-p', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames',
        await this.treeOf(fromId), await this.treeOf(toId)];
      if (paths && paths.length > 0) args.push('--', ...paths.map(toGitPath));
      return this.git.text(args);
    }));
  }

  replay(fromId: string, toId: string, ontoId: string): Promise<Replayed> {
    return this.serial(() => this.guard([fromId, toId, ontoId], async () => {
      const trees = { from: await this.treeOf(fromId), to: await this.treeOf(toId), onto: await this.treeOf(ontoId) };
      const plan = await planReplay(this.git, trees, await this.changedTrees(trees.from, trees.to));
      if (plan.conflicts.length) return { ok: false, conflicts: plan.conflicts };
      const tree = await treeWith(this.git, trees.onto, plan.entries);
      const id = `${this.runId}/${++this.counter}`;
      await this.writeRef(id, await writeCommit(this.storeDir, tree, 'replay'));
      this.trees.set(id, tree);
      return { ok: true, snapshot: { id, tree }, paths: await this.changedTrees(trees.onto, tree) };
    }));
  }

  showCommand(id: string, relPath: string): string {
    return `git --git-dir ${shellQuote(this.storeDir)} show ${shellQuote(`refs/greenloop/${id}:${toGitPath(relPath)}`)}`;
  }

  readFile(id: string, relPath: string): Promise<Buffer | null> {
    return this.serial(() => this.guard([id], async () => {
      const tree = await this.treeOf(id);
      const rel = toGitPath(relPath);
      if (!rel || rel.split('/').some((seg) => seg === '' || seg === '.' || seg === '..')) return null;
      if (!rel.includes('\n')) return blobAt(this.git, `${tree}:${rel}`);
      const entry = splitZ((await this.git.run(['ls-tree', '-z', tree, '--', rel])).stdout)[0];
      const m = entry ? /^\d+ blob ([0-9a-f]+)\t/.exec(entry) : null;
      if (!m) return null;
      return (await this.git.run(['cat-file', 'blob', m[1]])).stdout;
    }));
  }

  remember(refs: readonly SnapshotRef[]): void {
    // Only a well-formed id of a tree it does not know yet: whatever the store was told is checked again on an error.
    for (const r of refs) if (SNAPSHOT_ID.test(r.id) && /^[0-9a-f]{40,64}$/.test(r.tree) && !this.trees.has(r.id)) this.trees.set(r.id, r.tree);
  }

  unrecorded(paths: string[]): Promise<string[]> {
    const rels = [...new Set(paths.map(toGitPath).filter((p) => p.length > 0))];
    if (rels.length === 0) return Promise.resolve([]);
    // --no-index: a path counts as unrecorded by its rules alone, even if an old snapshot once held it.
    const check = async (paths: string[]) =>
      splitZ((await this.git.run(['check-ignore', '--no-index', '-z', '--stdin'], { input: joinZ(paths), okCodes: [1], patternPathspecs: true })).stdout);
    return this.serial(async () => {
      try {
        return await check(rels);
      } catch {
        // git refuses a path it could never record (one beyond a symbolic link): that path is unrecorded.
        const out: string[] = [];
        for (const rel of rels) out.push(...(await check([rel]).catch(() => [rel])));
        return out;
      }
    });
  }

  identity(id: string, without: readonly string[]): Promise<string> {
    return this.serial(() => this.guard([id], async () => {
      const tree = await this.treeOf(id);
      if (without.length === 0) return tree;
      const drop = without.map(toGitPath);
      const entries = splitZ((await this.git.run(['ls-tree', '-r', '-z', tree])).stdout);
      const kept = entries.filter((e) => {
        const rel = e.slice(e.indexOf('\t') + 1);
        return !drop.some((d) => rel === d || rel.startsWith(`${d}/`));
      });
      return createHash('sha256').update(kept.join('\0')).digest('hex');
    }));
  }

  unrecordedFingerprint(limit = MAX_FINGERPRINT_FILES): Promise<Map<string, string> | null> {
    return this.serial(async () => {
      const notState = this.stateDirRel ? ['--', '.', `:(exclude,literal)${this.stateDirRel}`] : [];
      const paths = splitZ((await this.git.run(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', ...notState], { patternPathspecs: true })).stdout);
      if (paths.length > limit) return null;
      const out = new Map<string, string>();
      for (let i = 0; i < paths.length; i += 256) {
        await Promise.all(paths.slice(i, i + 256).map(async (rel) => {
          try {
            const st = await fsp.lstat(path.join(this.workspace, rel));
            out.set(rel, `${st.size}:${st.mtimeMs}:${st.ino}:${st.mode}`);
          } catch {
            // Gone between the listing and the look: it simply is not there.
          }
        }));
      }
      return out;
    });
  }

  /** The workspace's current tree without keeping a snapshot (what a snapshot taken now would record). */
  currentTree(): Promise<string> {
    return this.serial(() => captureTree(this.capture));
  }

  /** Snapshot ids of a run, oldest first. */
  listSnapshots(runId: string = this.runId): Promise<string[]> {
    return this.serial(async () => {
      const refs = await this.git.text(['for-each-ref', '--format=%(refname)', `refs/greenloop/${runId}/`]);
      return refs.split('\n').filter(Boolean).map((r) => r.slice('refs/greenloop/'.length))
        .sort((a, b) => Number(a.split('/')[1]) - Number(b.split('/')[1]));
    });
  }

  /** Forgets a run's snapshots and prunes every object no other run (nor the present workspace) uses. */
  deleteRun(runId: string): Promise<void> {
    return this.serial(async () => {
      if (!RUN_ID.test(runId)) throw new Error(`The run id "${runId}" is not usable; nothing was deleted.`);
      const refs = (await this.git.text(['for-each-ref', '--format=%(refname)', `refs/greenloop/${runId}/`]))
        .split('\n').filter(Boolean);
      if (refs.length > 0) {
        await this.git.run(['update-ref', '--stdin'], { input: refs.map((r) => `delete ${r}\n`).join('') });
      }
      for (const id of [...this.trees.keys()]) if (id.startsWith(`${runId}/`)) this.trees.delete(id);
      await this.git.run(['gc', '--prune=now', '--quiet']);
    });
  }

  private async changedTrees(a: string, b: string): Promise<string[]> {
    if (a === b) return [];
    const out = await this.git.run(['diff-tree', '-r', '-z', '--name-only', '--no-renames', a, b]);
    return splitZ(out.stdout);
  }

  // Another store object on the same folder may have deleted a run whose trees this one still remembers.
  private async guard<T>(ids: string[], fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      await this.checkStillStored(ids);
      throw e;
    }
  }

  private async checkStillStored(ids: string[]): Promise<void> {
    for (const id of ids) {
      if (!this.trees.has(id)) continue;
      this.trees.delete(id);
      await this.treeOf(id);
    }
  }

  /** True when every one of these snapshots is still in the store (a resume needs them all). */
  hasAll(ids: readonly string[]): Promise<boolean> {
    return this.serial(async () => {
      for (const id of ids) {
        try {
          await this.treeOf(id);
        } catch {
          return false;
        }
      }
      return true;
    });
  }

  private async treeOf(id: string): Promise<string> {
    const cached = this.trees.get(id);
    if (cached) return cached;
    if (!SNAPSHOT_ID.test(id)) throw new Error(`"${id}" is not a snapshot id of this store; use an id returned by snapshot().`);
    const r = await this.git.run(['rev-parse', '--verify', '--quiet', `refs/greenloop/${id}^{tree}`], { okCodes: [1] });
    const tree = r.stdout.toString().trim();
    if (r.code !== 0 || !tree) {
      throw new Error(`Snapshot ${id} is not in the store (its run may have been deleted or the store rebuilt); take a new snapshot.`);
    }
    this.trees.set(id, tree);
    return tree;
  }

  // The ref is ours alone, so a plain file write (what update-ref does, minus a process start) is enough.
  private async writeRef(id: string, commit: string): Promise<void> {
    const file = path.join(this.storeDir, 'refs', 'greenloop', ...id.split('/'));
    await fsp.mkdir(path.dirname(file), { recursive: true });
    await fsp.writeFile(file, `${commit}\n`);
  }

  private async untrackIgnored(): Promise<void> {
    const out = await this.git.run(['ls-files', '-z', '--cached', '--ignored', '--exclude-standard']);
    const paths = splitZ(out.stdout);
    if (paths.length > 0) {
      await this.git.run(['update-index', '--force-remove', '-z', '--stdin'], { input: joinZ(paths) });
    }
  }

  // One private index per folder: every store object on that folder in this process takes turns with it.
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const guarded = () => fn().catch((err: unknown) => {
      // A store deleted under a live run fails in many ways (git "not a git repository", ENOENT on the index):
      // each means the same to the loop, so each is told as the one thing that happened.
      if (!existsSync(path.join(this.storeDir, 'HEAD'))) throw new StateDirLost(path.dirname(path.dirname(this.storeDir)));
      throw err;
    });
    const next = (queues.get(this.storeDir) ?? Promise.resolve()).then(guarded, guarded);
    queues.set(this.storeDir, next.catch(() => undefined));
    return next;
  }
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function toGitPath(p: string): string {
  return p.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
}

/**
 * A file's bytes as a tree holds it, asked in one git process (a check reads the old text of every file an agent
 * changed): null when the path is absent there or is no file (a folder, a submodule).
 */
async function blobAt(git: GitRunner, spec: string): Promise<Buffer | null> {
  const out = (await git.run(['cat-file', '--batch'], { input: `${spec}\n` })).stdout;
  const eol = out.indexOf(0x0a);
  const header = out.subarray(0, eol < 0 ? out.length : eol).toString('utf8').split(' ');
  if (eol < 0 || header.length !== 3 || header[1] !== 'blob') return null;
  return out.subarray(eol + 1, eol + 1 + Number(header[2]));
}
