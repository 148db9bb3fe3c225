// The workspace's git-ignored files (local settings, dependencies), which snapshots do not record. Before an agent
// runs, the small ones are copied aside (each up to 1 MB, 32 MB in all, top-level files first: a `.env` comes back
// byte for byte); after, a changed, created or deleted one is put back or removed. Dependencies are not copied (an
// install writes thousands of files), nor files past the limits: a change there is named as a warning, not undone. Left out: caches and build output any
// test run rewrites, an agent's own chat logs (.aider*), and every ignored file that changes while Greenloop's own
// test run runs (the tests write it, and an agent that runs the tests writes it too).
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { minimatch } from 'minimatch';
import type { OutsideChange } from '../ports/outside';
import type { SnapshotStore } from '../ports/snapshots';
import { runnerRegenerated } from '../runners/registry';
import { changeOf, putBack, removeEmptyFolders, saveFile, SaveBudget, type SavedFile } from './savedFile';

const MB = 1024 * 1024;
const PER_FILE = 1 * MB;
const TOTAL = 32 * MB;

/** Checkers' caches, tsc's build info and build output; the runners' rooms name what their runs rewrite. */
const REGENERATED = [
  '**/.mypy_cache/**', '**/.ruff_cache/**', '**/.cache/**', '**/node_modules/.cache/**', '**/*.tsbuildinfo',
  'dist/**', 'build/**', 'out/**', '**/.turbo/**', '**/.next/**', ...runnerRegenerated(),
];

/** What agent CLIs keep in the workspace for themselves (aider's chat history and tag cache): nothing runs it. */
const AGENT_OWN = ['.aider*', '.aider*/**'];

const isRegenerated = (rel: string) => [...REGENERATED, ...AGENT_OWN].some((g) => minimatch(rel, g, { dot: true }));
const isDependency = (rel: string) => rel.split('/').includes('node_modules') || /^\.?venv\//.test(rel);
const depth = (rel: string) => rel.split('/').length;

type Fingerprint = Map<string, string>;

/** Paths whose size, time or inode differ, or that came or went, leaving out what any test run rewrites. */
export function changedIgnored(before: Fingerprint, after: Fingerprint): string[] {
  const changed = new Set<string>();
  for (const [p, v] of after) if (before.get(p) !== v) changed.add(p);
  for (const p of before.keys()) if (!after.has(p)) changed.add(p);
  return [...changed].filter((p) => !isRegenerated(p)).sort();
}

export class IgnoredFilesWatch {
  /** The fingerprint after the last check: what changes from there to the next mark, the loop's tests wrote. */
  private previous: Fingerprint | null = null;
  private readonly testOutputs = new Set<string>();

  private constructor(
    private readonly workspace: string,
    private readonly snapshots: Pick<SnapshotStore, 'unrecordedFingerprint'>,
    private readonly saveDir: string,
  ) {}

  /** Opened before the first test run, so what that run writes is known as the tests' own. */
  static async open(realWorkspace: string, snapshots: Pick<SnapshotStore, 'unrecordedFingerprint'>, saveDir: string): Promise<IgnoredFilesWatch> {
    const watch = new IgnoredFilesWatch(realWorkspace, snapshots, saveDir);
    watch.previous = (await snapshots.unrecordedFingerprint?.()) ?? null;
    return watch;
  }

  async mark(): Promise<{ warnings: string[]; check: () => Promise<OutsideChange[]> }> {
    const before = (await this.snapshots.unrecordedFingerprint?.()) ?? null;
    if (!before) {
      return { warnings: ['There are too many git-ignored files to check which of them the agent changes; changes there cannot be seen or undone.'], check: async () => [] };
    }
    if (this.previous) for (const p of changedIgnored(this.previous, before)) this.testOutputs.add(p);
    await fsp.rm(this.saveDir, { recursive: true, force: true });
    await fsp.mkdir(this.saveDir, { recursive: true });
    const budget = new SaveBudget(TOTAL, PER_FILE);
    const saved = new Map<string, SavedFile>();
    const worth = [...before.keys()].filter((p) => !isDependency(p) && !isRegenerated(p) && !this.testOutputs.has(p))
      .sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : 1));
    for (const rel of worth) {
      if (budget.spent) break;
      const copy = { dir: this.saveDir, name: String(saved.size) };
      saved.set(rel, await saveFile(path.join(this.workspace, rel), budget, { copy, folder: this.folderOf(rel) }));
    }
    return { warnings: [], check: () => this.check(before, saved) };
  }

  private async check(before: Fingerprint, saved: Map<string, SavedFile>): Promise<OutsideChange[]> {
    const after = await this.snapshots.unrecordedFingerprint?.();
    if (!after) {
      this.previous = null;
      return [{ where: 'git-ignored files', what: 'created', undone: false, why: 'so many were written that Greenloop cannot look at them all', ignored: true, guarded: false }];
    }
    const out: OutsideChange[] = [];
    for (const rel of changedIgnored(before, after)) {
      if (this.testOutputs.has(rel)) continue;
      const what = !before.has(rel) ? 'created' : !after.has(rel) ? 'deleted' : 'changed';
      let entry = saved.get(rel);
      if (!entry && what === 'created' && !isDependency(rel)) entry = { abs: path.join(this.workspace, rel), kind: 'absent', stat: 'absent', folder: this.folderOf(rel) };
      // Touched but the same bytes: nothing to undo.
      if (entry && entry.kind !== 'absent' && (await changeOf(entry)) === null) continue;
      const why = entry ? await putBack(entry) : isDependency(rel) ? 'dependencies are not saved' : 'past the 32 MB Greenloop saves in all';
      // A created file removed: the folders made for it go too, as a rollback from a snapshot leaves them.
      if (why === null && entry?.kind === 'absent') await removeEmptyFolders(this.workspace, path.dirname(entry.abs));
      // Saved (or created, so removed): the watch answers for it. Dependencies and files too big to save it does not.
      out.push({ where: rel, what, undone: why === null, why: why ?? undefined, ignored: true, guarded: entry !== undefined && entry.kind !== 'unsaved' });
    }
    // After a change the run stops; otherwise this is where the next look starts from.
    this.previous = after;
    await fsp.rm(this.saveDir, { recursive: true, force: true });
    return out;
  }

  /** Where an ignored file lives: git lists none through a linked folder, so it is the workspace's own. */
  private folderOf(rel: string): string {
    return path.dirname(path.join(this.workspace, rel));
  }
}
