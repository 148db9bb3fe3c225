// Today's CLI for the comparison: the tree of a commit (git archive, no worktree registered in the repository) built
// once into the bench cache with its own lockfile; its dist/cli.js runs the same bugs in the same run.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

export function baselineCli(ref: string, cache: string): string {
  const commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dir = path.join(cache, `greenloop-${commit.slice(0, 12)}`);
  const cli = path.join(dir, 'dist', 'cli.js');
  if (fs.existsSync(path.join(dir, '.ready'))) return cli;
  console.error(`bench:context: building today's CLI from ${commit.slice(0, 12)} into ${dir} (once)…`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('bash', ['-c', `git archive ${commit} | tar -x -C ${JSON.stringify(dir)}`], { cwd: ROOT, stdio: 'inherit' });
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
  execFileSync('node', ['esbuild.js', '--production'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
  fs.writeFileSync(path.join(dir, '.ready'), `${commit}\n`);
  return cli;
}
