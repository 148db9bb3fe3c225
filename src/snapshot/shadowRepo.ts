// Opens (or creates) the private bare repository that holds one workspace's snapshots. A store that cannot be read
// is moved aside, never deleted: earlier runs' rollback points may still be recovered from it by hand.
import { existsSync, promises as fsp, statSync } from 'node:fs';
import * as path from 'node:path';
import { buildExcludeFile } from './excludeRules';
import { GitError, GitRunner } from './gitRunner';
import { stateDirInside } from '../base/stateDir';

// info/attributes outranks every .gitattributes in the workspace: no eol conversion, no clean/smudge filters
// (git-lfs and friends would run the user's programs), no ident expansion. Files are stored byte for byte.
const ATTRIBUTES = '* -text -eol -ident -filter -working-tree-encoding\n';
const GLOBAL_CONFIG = '# Stands in for ~/.gitconfig when Greenloop runs git.\n[safe]\n\tdirectory = *\n';
const STALE_LOCK_MS = 60_000;

export interface ShadowRepo {
  git: GitRunner;
  gitDir: string;
  indexFile: string;
  /** True when the exclude rules differ from the last time this store was opened. */
  excludesChanged: boolean;
  /** The state folder's path inside the workspace, null when it is outside. */
  stateDirRel: string | null;
  /** The refs under `refPrefix` (asked for while checking the store can be read): none in a new store. */
  refs: string[];
}

export async function openShadowRepo(
  workspace: string,
  gitDir: string,
  excludes: string[],
  warn: (msg: string) => void,
  /** The last run on this folder is known dead (its journal says so): every lock in the store is its leftover. */
  locksOwnerGone = false,
  /** Whose refs the caller needs (e.g. refs/greenloop/<runId>/): listed by the same git process that checks the store. */
  refPrefix = 'refs/greenloop/',
): Promise<ShadowRepo> {
  await fsp.mkdir(path.dirname(gitDir), { recursive: true });
  const globalConfig = path.join(path.dirname(gitDir), 'gitconfig');
  // Ours alone, and rewritten every time: a damaged copy must not make a good store look unreadable.
  if ((await fsp.readFile(globalConfig, 'utf8').catch(() => '')) !== GLOBAL_CONFIG) await fsp.writeFile(globalConfig, GLOBAL_CONFIG);
  const indexFile = path.join(gitDir, 'greenloop.index');
  const git = new GitRunner({ gitDir, workTree: workspace, indexFile, globalConfig });
  // Without git nothing can be judged a broken store: refsIfReadable says so before anything is touched (and a new
  // store's `git init` says it itself). One git process checks the store and lists the refs: a Stop hook opens the
  // store on every stop.
  let refs = existsSync(gitDir) ? await refsIfReadable(git, refPrefix) : [];
  if (refs === null) {
    refs = [];
    const aside = `${gitDir}.unreadable-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await fsp.rename(gitDir, aside);
    warn(`The snapshot store at ${gitDir} was unreadable; it was moved aside to ${aside} (not deleted) and a new one started.`);
  }
  if (!existsSync(gitDir)) await git.init();

  await removeStaleLocks(gitDir, warn, locksOwnerGone);
  const info = path.join(gitDir, 'info');
  await fsp.mkdir(info, { recursive: true });
  await fsp.writeFile(path.join(info, 'attributes'), ATTRIBUTES);
  // A state folder kept inside the workspace holds this very store: never recorded, never seen as a change.
  const stateDirRel = stateDirInside(workspace, path.dirname(path.dirname(gitDir)));
  if (stateDirRel === '') throw new Error(`The state folder cannot be the workspace itself (${workspace}); choose a folder outside it or below it.`);
  if (stateDirRel) await keepOutOfPersonsGit(path.join(workspace, stateDirRel));
  const excludeText = buildExcludeFile(workspace, excludes, stateDirRel);
  const excludePath = path.join(info, 'exclude');
  const before = await fsp.readFile(excludePath, 'utf8').catch(() => '');
  if (before !== excludeText) await fsp.writeFile(excludePath, excludeText);
  return { git, gitDir, indexFile, excludesChanged: before !== excludeText, stateDirRel, refs };
}

/** The person's own `git status` would list the store's thousands of files; a `*` .gitignore inside keeps it quiet. */
async function keepOutOfPersonsGit(stateDir: string): Promise<void> {
  const file = path.join(stateDir, '.gitignore');
  if (!existsSync(file)) await fsp.writeFile(file, '# Greenloop\'s state (snapshots, run journal): not part of the project.\n*\n');
}

/** The store's refs under `prefix`, or null when git cannot read the store (one process does both). */
async function refsIfReadable(git: GitRunner, prefix: string): Promise<string[] | null> {
  try {
    return (await git.text(['for-each-ref', '--format=%(refname)', prefix])).split('\n').filter(Boolean);
  } catch (err) {
    // git itself could not start (not on PATH): that says nothing about the store.
    if (err instanceof GitError && err.exitCode === null) throw err;
    return null;
  }
}

// A crash can leave index.lock (or a ref's lock) behind, which would block every later snapshot. Only old locks are
// taken, or any lock when the run that held the store is known dead: a fresh one may belong to another Greenloop
// process working on the same folder right now.
async function removeStaleLocks(gitDir: string, warn: (msg: string) => void, ownerGone: boolean): Promise<void> {
  const locks = ['greenloop.index.lock', 'packed-refs.lock', 'HEAD.lock', 'config.lock'].map((n) => path.join(gitDir, n));
  locks.push(...(await refLocks(path.join(gitDir, 'refs'))));
  const removed: string[] = [];
  for (const p of locks) {
    try {
      if (ownerGone || Date.now() - statSync(p).mtimeMs > STALE_LOCK_MS) {
        statSync(p);
        await fsp.rm(p, { force: true });
        removed.push(path.relative(gitDir, p));
      }
    } catch {
      // No such lock: the usual case.
    }
  }
  if (removed.length) warn(`Removed ${removed.length === 1 ? 'a stale lock' : `${removed.length} stale locks`} left in the snapshot store by an interrupted run (${removed.join(', ')}).`);
}

async function refLocks(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fsp.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await refLocks(p)));
    else if (e.name.endsWith('.lock')) out.push(p);
  }
  return out;
}
