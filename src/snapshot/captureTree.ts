// Brings the private index in line with the workspace and writes its tree. The index keeps stat data between
// calls, so after a one-file edit git re-hashes that one file only.
//
// Nested repositories (submodules, vendored clones) need care: `git add -A` would record a directory with its
// own .git as a gitlink (or fail when it has no commit yet), losing the files inside. Git walks into such a
// directory once the index already has an entry below it, so we seed one real file there with update-index
// and let `add -A` do the rest. Nested .git directories are never opened, moved or written.
import { existsSync, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { WorkspaceNotRecordable } from '../ports/snapshots';
import { GitError, joinZ, splitZ, type GitRunner } from './gitRunner';

const MAX_ROUNDS = 8;
const MAX_SEED_VISITS = 5_000;

export interface CaptureContext {
  git: GitRunner;
  workspace: string;
  indexFile: string;
  excludeFile: string;
  warn: (msg: string) => void;
}

export async function captureTree(ctx: CaptureContext): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    await addAll(ctx);
    try {
      return (await ctx.git.text(['write-tree'])).trim();
    } catch (e) {
      // An index naming objects the store no longer has (a damaged store): start the index afresh, once.
      if (attempt > 0) throw e;
      await dropIndex(ctx);
    }
  }
}

/**
 * The tree after writing only `written`, when the index already matches the rest of the workspace (the caller's
 * last look found nothing else changed): git looks at these paths alone instead of every file. Anything unusual
 * (a nested repository, a path git refuses) falls back to the full capture.
 */
export async function captureWritten(ctx: CaptureContext, written: readonly string[]): Promise<string> {
  try {
    if (written.length > 0) {
      const verbose = await ctx.git.text(['add', '--all', '--verbose', '--pathspec-from-file=-', '--pathspec-file-nul'], { input: joinZ([...written]) });
      if (addedGitlinks(verbose).length > 0) return await captureTree(ctx);
    }
    return (await ctx.git.text(['write-tree'])).trim();
  } catch {
    return captureTree(ctx);
  }
}

/** A file git will not record (a name some file system reads as .git): nothing can snapshot or roll it back. */
export class UnrecordablePathError extends WorkspaceNotRecordable {
  constructor(path: string) {
    super(`Git cannot record ${path} (a folder name some file systems read as .git, such as ".git." or "git~1"), so no snapshot of the workspace can be taken; rename or delete it, or add it to greenloop.snapshotExcludes.`, path);
    this.name = 'UnrecordablePathError';
  }
}

/** `git add --all` into the private index, recording nested repositories' files instead of gitlinks. */
export async function addAll(ctx: CaptureContext): Promise<void> {
  let lastError: unknown;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let verbose: string;
    try {
      verbose = await ctx.git.text(['add', '--all', '--verbose']);
    } catch (e) {
      lastError = e;
      const invalid = e instanceof GitError ? /invalid path '([^']+)'/.exec(e.stderr) : null;
      if (invalid) throw new UnrecordablePathError(invalid[1]);
      if (!(await indexReadable(ctx))) {
        await dropIndex(ctx);
        continue;
      }
      const nested = await untrackedNestedRepos(ctx.git);
      if (nested.length === 0) throw e;
      await seedNested(ctx, nested);
      continue;
    }
    const gitlinks = addedGitlinks(verbose);
    if (gitlinks.length === 0) return;
    await ctx.git.run(['update-index', '--force-remove', '-z', '--stdin'], { input: joinZ(gitlinks) });
    await seedNested(ctx, gitlinks);
  }
  throw lastError instanceof Error ? lastError : new Error('Could not record the workspace in the snapshot store.');
}

/** `add --verbose` prints "add 'dir/'" when it records a nested repository as a gitlink. */
function addedGitlinks(verbose: string): string[] {
  const out: string[] = [];
  for (const line of verbose.split('\n')) {
    const m = /^add '(.*)\/'$/.exec(line);
    if (m) out.push(m[1]);
  }
  return out;
}

async function indexReadable(ctx: CaptureContext): Promise<boolean> {
  try {
    await ctx.git.run(['ls-files', '--', '.greenloop-probe']);
    return true;
  } catch {
    return false;
  }
}

async function dropIndex(ctx: CaptureContext): Promise<void> {
  // No store left at all (its folder deleted): nothing to rebuild; the store tells the loop what happened.
  if (!existsSync(path.join(path.dirname(ctx.indexFile), 'HEAD'))) throw new Error('The snapshot store is gone.');
  ctx.warn('The snapshot store\'s index was damaged and has been rebuilt; this snapshot re-reads every file once.');
  await fsp.rm(ctx.indexFile, { force: true });
  await fsp.rm(`${ctx.indexFile}.lock`, { force: true });
}

/** Untracked nested repositories show up in `ls-files -o` as a directory ("dir/") instead of their files. */
async function untrackedNestedRepos(git: GitRunner): Promise<string[]> {
  const out = await git.run(['ls-files', '-z', '--others', '--exclude-standard']);
  return splitZ(out.stdout).filter((p) => p.endsWith('/')).map((p) => p.slice(0, -1));
}

async function seedNested(ctx: CaptureContext, dirs: string[]): Promise<void> {
  const seeds: string[] = [];
  const empty: string[] = [];
  for (const d of dirs) {
    const seed = await findSeed(ctx, d);
    if (seed) seeds.push(seed);
    else empty.push(d);
  }
  if (seeds.length > 0) {
    await ctx.git.run(['update-index', '--add', '-z', '--stdin'], { input: joinZ(seeds) });
  }
  // A nested repository with nothing recordable in it would come back as a gitlink on every snapshot;
  // excluding it until the store is next opened keeps it out (and untouched).
  if (empty.length > 0) {
    const lines = empty.map((d) => `/${d}/`).join('\n');
    await fsp.appendFile(ctx.excludeFile, `# nested repositories with nothing to record\n${lines}\n`);
  }
}

/** Breadth-first search for one file under `dir` that the ignore rules let us record. */
async function findSeed(ctx: CaptureContext, dir: string): Promise<string | null> {
  const queue = [dir];
  let visits = 0;
  while (queue.length > 0 && visits < MAX_SEED_VISITS) {
    const rel = queue.shift() as string;
    let entries;
    try {
      entries = await fsp.readdir(path.join(ctx.workspace, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    visits += entries.length;
    const files: string[] = [];
    const subdirs: string[] = [];
    for (const e of entries) {
      if (e.name === '.git') continue;
      const p = `${rel}/${e.name}`;
      if (e.isDirectory()) subdirs.push(p);
      else if (e.isFile() || e.isSymbolicLink()) files.push(p);
    }
    const okFiles = await notIgnored(ctx.git, files);
    if (okFiles.length > 0) return okFiles[0];
    queue.push(...(await notIgnored(ctx.git, subdirs)));
  }
  return null;
}

async function notIgnored(git: GitRunner, paths: string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const r = await git.run(['check-ignore', '--no-index', '-z', '--stdin'], {
    input: joinZ(paths), okCodes: [1], patternPathspecs: true,
  });
  const ignored = new Set(splitZ(r.stdout));
  return paths.filter((p) => !ignored.has(p));
}
