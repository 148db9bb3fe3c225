// The person's own repository around the workspace: its hooks, config, info/ rules, HEAD, branches and tags, and
// what the index stages. Saved before an agent runs and compared after; whatever the agent changed there is put
// back byte for byte. Found by reading `.git` (a folder, or a file that points to one: worktrees, submodules), never
// by running git in the person's repository. Objects the agent wrote (.git/objects) are harmless and stay, and so
// do its reflog lines (.git/logs): they show what it did. Remote-tracking refs are left out: an editor's automatic
// fetch moves them, and a push cannot be undone from here anyway.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { OutsideChange } from '../ports/outside';
import { changeOf, putBack, saveFile, SaveBudget, type SavedFile } from './savedFile';
import { stagedDigest } from './gitIndexDigest';

const MB = 1024 * 1024;
const HOOKS_BYTES = 4 * MB;
const REST_BYTES = 64 * MB;
const MAX_REFS = 100_000;

export interface GitDirs {
  /** Where HEAD and the index of this checkout are. */
  gitDir: string;
  /** Where hooks, config, refs and info are (the main repository's, for a worktree). */
  commonDir: string;
}

/** The repository the workspace is in (looking up from it, as git does), or null when there is none. */
export async function findGitDirs(workspace: string): Promise<GitDirs | null> {
  for (let dir = workspace; ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    const st = await fsp.stat(dotGit).catch(() => null);
    if (st?.isDirectory()) return withCommonDir(dotGit);
    if (st?.isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(await fsp.readFile(dotGit, 'utf8').catch(() => ''));
      if (m) return withCommonDir(path.resolve(dir, m[1]));
    }
    if (path.dirname(dir) === dir) return null;
  }
}

async function withCommonDir(gitDir: string): Promise<GitDirs> {
  const common = (await fsp.readFile(path.join(gitDir, 'commondir'), 'utf8').catch(() => '')).trim();
  return { gitDir, commonDir: common ? path.resolve(gitDir, common) : gitDir };
}

/** Every file under a folder (a link counts as a file, never followed). */
async function filesUnder(dir: string, skip: (rel: string) => boolean = () => false, rel = ''): Promise<string[]> {
  const entries = await fsp.readdir(path.join(dir, rel), { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (skip(r)) continue;
    if (e.isDirectory()) out.push(...(await filesUnder(dir, skip, r)));
    else out.push(r);
  }
  return out;
}

/** Folders whose files are saved one by one: a link put in their place is undone first, as one change. */
const FOLDERS = ['hooks', 'info'];

/** info/refs is the ref list `git gc` (through update-server-info) writes for dumb HTTP clients: it runs nothing. */
const regenerated = (dir: string) => (rel: string) => dir === 'info' && rel === 'refs';

const isRemoteRef = (rel: string) => rel === 'refs/remotes' || rel.startsWith('refs/remotes/');
const isLock = (rel: string) => rel.endsWith('.lock');

/** name → value of every branch, tag and other ref but remote-tracking ones, loose files over packed-refs. */
async function refValues(commonDir: string, looseRefs: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const packed = await fsp.readFile(path.join(commonDir, 'packed-refs'), 'utf8').catch(() => '');
  for (const line of packed.split('\n')) {
    const m = /^([0-9a-f]{40,64}) (refs\/.+)$/.exec(line);
    if (m && !isRemoteRef(m[2])) out.set(m[2], m[1]);
  }
  for (const rel of looseRefs) {
    const value = await fsp.readFile(path.join(commonDir, rel), 'utf8').catch(() => null);
    if (value !== null) out.set(rel, value.trim());
  }
  return out;
}

async function looseRefs(commonDir: string): Promise<string[]> {
  return (await filesUnder(commonDir, (rel) => isRemoteRef(rel) || isLock(rel), 'refs')).slice(0, MAX_REFS);
}

function refLabel(name: string): string {
  if (name.startsWith('refs/heads/')) return `branch ${name.slice(11)}`;
  if (name.startsWith('refs/tags/')) return `tag ${name.slice(10)}`;
  return name;
}

/** What the agent must leave as it is in the repository, saved; `check` compares and puts back. */
export class GitDirWatch {
  private constructor(
    /** objects: the inode of the object store, which tells the same repository from one made again in its place. */
    private readonly dirs: (GitDirs & { realCommon: string; objects: number | null }) | null,
    private readonly show: (abs: string) => string,
    private readonly files: SavedFile[],
    /** Files under hooks/ and info/ at the mark (relative to the common dir): any other one there is new. */
    private readonly listed: Set<string>,
    /** Which of FOLDERS were real folders at the mark. */
    private readonly realFolders: Set<string>,
    private readonly refs: { saved: SavedFile[]; values: Map<string, string> },
    private readonly index: { saved: SavedFile; digest: string } | null,
    readonly warnings: string[],
  ) {}

  static async mark(workspace: string, show: (abs: string) => string): Promise<GitDirWatch> {
    const dirs = await findGitDirs(workspace);
    if (!dirs) return new GitDirWatch(null, show, [], new Set(), new Set(), { saved: [], values: new Map() }, null, []);
    const { gitDir, commonDir } = dirs;
    const realCommon = await fsp.realpath(commonDir).catch(() => commonDir);
    const hooks = new SaveBudget(HOOKS_BYTES, HOOKS_BYTES);
    const rest = new SaveBudget(REST_BYTES, REST_BYTES);
    const hookRels = await filesUnder(path.join(commonDir, 'hooks'));
    const files: SavedFile[] = [];
    for (const rel of hookRels) files.push(await saveFile(path.join(commonDir, 'hooks', rel), hooks));
    const infoRels = await filesUnder(path.join(commonDir, 'info'), regenerated('info'));
    const plain = [...new Set([
      path.join(commonDir, 'config'), path.join(commonDir, 'config.worktree'), path.join(gitDir, 'config.worktree'),
      path.join(commonDir, 'HEAD'), path.join(gitDir, 'HEAD'), ...infoRels.map((r) => path.join(commonDir, 'info', r)),
    ])];
    for (const abs of plain) files.push(await saveFile(abs, rest));
    const loose = await looseRefs(commonDir);
    const refSaved: SavedFile[] = [await saveFile(path.join(commonDir, 'packed-refs'), rest)];
    for (const rel of loose) refSaved.push(await saveFile(path.join(commonDir, rel), rest));
    const indexFile = await saveFile(path.join(gitDir, 'index'), rest);
    const index = { saved: indexFile, digest: await this.indexDigest(commonDir, path.join(gitDir, 'index')) };
    const warnings = [...files, ...refSaved, indexFile].some((f) => f.kind === 'unsaved')
      ? [`Some of your repository's files are too big to save (${files.concat(refSaved, [indexFile]).filter((f) => f.kind === 'unsaved').map((f) => show(f.abs)).slice(0, 3).join(', ')}): a change the agent makes there is reported but cannot be undone.`]
      : [];
    const listed = new Set([...hookRels.map((r) => `hooks/${r}`), ...infoRels.map((r) => `info/${r}`)]);
    const realFolders = new Set<string>();
    for (const dir of FOLDERS) if ((await fsp.lstat(path.join(commonDir, dir)).catch(() => null))?.isDirectory()) realFolders.add(dir);
    const objects = (await fsp.stat(path.join(commonDir, 'objects')).catch(() => null))?.ino ?? null;
    return new GitDirWatch({ ...dirs, realCommon, objects }, show, files, listed, realFolders, { saved: refSaved, values: await refValues(commonDir, loose) }, index, warnings);
  }

  private static async indexDigest(commonDir: string, indexFile: string): Promise<string> {
    const bytes = await fsp.readFile(indexFile).catch(() => null);
    if (!bytes) return 'absent';
    const config = await fsp.readFile(path.join(commonDir, 'config'), 'utf8').catch(() => '');
    const digest = stagedDigest(bytes, /^\s*objectformat\s*=\s*sha256\s*$/im.test(config) ? 32 : 20);
    // A format this reader does not know is compared byte for byte.
    return digest ?? `bytes:${bytes.toString('base64')}`;
  }

  /** What changed since the mark, each put back where it can be. */
  async check(workspace: string): Promise<OutsideChange[]> {
    const now = await findGitDirs(workspace);
    if (!this.dirs) {
      return now ? [{ where: this.show(now.gitDir), what: 'created', undone: false, why: 'a new repository is left for you to remove', guarded: true }] : [];
    }
    // A repository removed or made again cannot be mended file by file: its commits are gone.
    const objects = (await fsp.stat(path.join(this.dirs.commonDir, 'objects')).catch(() => null))?.ino ?? null;
    if (!now || now.gitDir !== this.dirs.gitDir || objects !== this.dirs.objects) {
      return [{ where: this.show(this.dirs.gitDir), what: now && objects !== null ? 'changed' : 'deleted', undone: false, why: 'the repository itself was removed or replaced', guarded: true }];
    }
    const out: OutsideChange[] = [];
    const swapped = await this.unswapFolders(out);
    for (const saved of this.files) await this.compare(saved, this.show(saved.abs), swapped.some((d) => saved.abs.startsWith(d)) ? [] : out);
    // Hooks and rules the agent added: removed.
    for (const dir of FOLDERS) {
      for (const rel of await filesUnder(path.join(this.dirs.commonDir, dir), regenerated(dir))) {
        const r = `${dir}/${rel}`;
        if (!this.listed.has(r)) await this.compare(this.wasAbsent(r), this.show(path.join(this.dirs.commonDir, r)), out);
      }
    }
    out.push(...(await this.checkRefs()));
    if (this.index) {
      const digest = await GitDirWatch.indexDigest(this.dirs.commonDir, this.index.saved.abs);
      if (digest !== this.index.digest) {
        const why = await putBack(this.index.saved);
        const what = digest === 'absent' ? 'deleted' : this.index.digest === 'absent' ? 'created' : 'changed';
        out.push({ where: `what is staged (${this.show(this.index.saved.abs)})`, what, undone: why === null, why: why ?? undefined, guarded: true });
      } else if (out.length && (await changeOf(this.index.saved))) {
        // Staging the same content (a stash, a reset) still rewrote the file: with the rest going back, so does it.
        await putBack(this.index.saved);
      }
    }
    return out;
  }

  /** hooks/ or info/ turned into a link: the link goes (never what it points to), the folder comes back to be refilled. */
  private async unswapFolders(out: OutsideChange[]): Promise<string[]> {
    const swapped: string[] = [];
    for (const dir of this.realFolders) {
      const abs = path.join(this.dirs!.commonDir, dir);
      if (!(await fsp.lstat(abs).catch(() => null))?.isSymbolicLink()) continue;
      const why = await fsp.unlink(abs).then(() => fsp.mkdir(abs)).then(() => undefined, (err: Error) => err.message);
      out.push({ where: this.show(abs), what: 'replaced by a link', undone: !why, why, guarded: true });
      swapped.push(`${abs}${path.sep}`);
    }
    return swapped;
  }

  /** A file under the common dir that was not there at the mark, in the folder where it would have been then. */
  private wasAbsent(rel: string): SavedFile {
    const { commonDir, realCommon } = this.dirs!;
    return { abs: path.join(commonDir, rel), kind: 'absent', stat: 'absent', folder: path.dirname(path.join(realCommon, rel)) };
  }

  private async compare(saved: SavedFile, where: string, out: OutsideChange[]): Promise<void> {
    const what = await changeOf(saved);
    if (!what) return;
    const why = await putBack(saved);
    out.push({ where, what, undone: why === null, why: why ?? undefined, guarded: true });
  }

  /** Branches and tags compared by value, so packing refs is no change; put back file by file as they were. */
  private async checkRefs(): Promise<OutsideChange[]> {
    const commonDir = this.dirs!.commonDir;
    const loose = await looseRefs(commonDir);
    const values = await refValues(commonDir, loose);
    const before = this.refs.values;
    const names = [...new Set([...before.keys(), ...values.keys()])].filter((n) => before.get(n) !== values.get(n)).sort();
    if (names.length === 0) return [];
    const problems: string[] = [];
    for (const saved of this.refs.saved) {
      if (await changeOf(saved)) {
        const why = await putBack(saved);
        if (why) problems.push(why);
      }
    }
    const had = new Set(this.refs.saved.map((s) => s.abs));
    for (const rel of loose) {
      const abs = path.join(commonDir, rel);
      if (had.has(abs)) continue;
      const why = await putBack(this.wasAbsent(rel));
      if (why) problems.push(why);
    }
    return names.map((n) => ({
      where: refLabel(n), what: !before.has(n) ? 'created' : !values.has(n) ? 'deleted' : 'changed',
      undone: problems.length === 0, why: problems[0], guarded: true,
    }));
  }
}
