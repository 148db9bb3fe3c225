// The run's change as a binary-safe patch from the checked-out commit, for `git apply` on that commit and for
// actions/upload-artifact. Only the files the attempts touched are in it: what the test command itself wrote
// (reports, caches, coverage) is no part of the fix. A private index leaves the person's own index as it was.
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { AnyReport, PatchFacts } from './runFacts';

interface Git {
  (args: string[], opts?: { env?: NodeJS.ProcessEnv; maxBuffer?: number }): Promise<string>;
}

function gitIn(cwd: string): Git {
  return (args, opts = {}) => new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: { ...process.env, ...opts.env }, maxBuffer: opts.maxBuffer ?? 64 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new Error(`git ${args[0]}: ${(stderr || err.message).trim().split('\n')[0]}`));
      else resolve(stdout);
    });
  });
}

/** Every file an attempt edited, relative to the working directory (an attempt later rolled back diffs as nothing). */
export function touchedFiles(report: AnyReport): string[] {
  return [...new Set(report.iterations.flatMap((it) => [...it.files, ...(it.reverted ?? []).map((r) => r.path)]))].sort();
}

/**
 * Writes `patchPath` (empty when nothing changed) and returns what the summary shows. A workspace outside git, or
 * a repository with no commit yet, gets no patch and a sentence why.
 */
export async function writePatch(opts: { cwd: string; files: string[]; patchPath: string }): Promise<PatchFacts> {
  const git = gitIn(opts.cwd);
  const none = (why: string): PatchFacts => ({ path: '', text: '', files: 0, added: 0, removed: 0, none: why });
  try {
    await git(['rev-parse', '--show-toplevel']);
  } catch {
    return none('the working directory is not in a git repository.');
  }
  try {
    await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  } catch {
    return none('the repository has no commit to make a patch against.');
  }
  fs.mkdirSync(path.dirname(opts.patchPath), { recursive: true });
  if (!opts.files.length) {
    fs.writeFileSync(opts.patchPath, '');
    return { path: opts.patchPath, text: '', files: 0, added: 0, removed: 0 };
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-patch-'));
  try {
    const env = { GIT_INDEX_FILE: path.join(scratch, 'index') };
    await git(['read-tree', 'HEAD'], { env });
    // The whole working directory, so a new file is found; the diff below keeps only the touched ones.
    await git(['add', '-A', '--', '.'], { env });
    const spec = ['--', ...opts.files.map((f) => `:(literal)${f}`)];
    const base = ['diff', '--cached', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', 'HEAD'];
    const binary = await git([...base, '--binary', '--full-index', ...spec], { env });
    fs.writeFileSync(opts.patchPath, binary);
    const text = await git([...base, ...spec], { env });
    const numstat = await git([...base, '--numstat', ...spec], { env });
    let added = 0;
    let removed = 0;
    const rows = numstat.split('\n').filter(Boolean);
    for (const row of rows) {
      const [a, r] = row.split('\t');
      added += Number(a) || 0;
      removed += Number(r) || 0;
    }
    return { path: opts.patchPath, text, files: rows.length, added, removed };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
