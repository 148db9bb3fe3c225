// The projects' pristine copies (cloned once from the fetched mirrors into ~/.cache/greenloop-bench/context) and a
// fresh git workspace per bug: the pristine tree with the one line changed and committed, as a user's repository.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Project } from './projects';
import type { Bug } from './bugs';

const ROOT = path.resolve(__dirname, '../..');
export const CACHE = path.join(process.env.GREENLOOP_BENCH_CACHE ?? path.join(os.homedir(), '.cache', 'greenloop-bench'), 'context');
const MIRRORS = process.env.GREENLOOP_BENCH_MIRRORS ?? '/work/.mirror';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', '-c', 'commit.gpgsign=false', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] }).toString();

/** The runners' cache (jest, vitest, mocha at the versions the tests pin), installed once from the npm registry. */
function runnerModules(runner: string): string {
  const out = execFileSync('bash', [path.join(ROOT, 'test/fixtures/targeted/install-runners.sh'), runner], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return path.join(out.trim().split('\n').pop()!, runner, 'node_modules');
}

/**
 * The runner's modules with other packages beside them — TypeScript for a type error (`--tsc on` needs
 * node_modules/.bin/tsc), and what the project's own configuration loads (cookie's tsconfig extends
 * @borderless/ts-scripts' one, without which vitest loads no test file at all): a folder of links to the runner's
 * modules and to each package, made once; the packages installed once from the npm registry.
 */
function withPackages(runner: string, packages: readonly string[]): string {
  const key = packages.map((p) => p.replace(/[^a-z0-9.-]+/gi, '_')).join('+');
  const dir = path.join(CACHE, `node_modules-${runner}-${key}`);
  if (fs.existsSync(path.join(dir, '.ready'))) return dir;
  const extra = path.join(CACHE, `packages-${key}`);
  if (!fs.existsSync(path.join(extra, '.ready'))) {
    fs.mkdirSync(extra, { recursive: true });
    execFileSync('npm', ['install', '--prefix', extra, '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...packages], { stdio: ['ignore', 'ignore', 'inherit'] });
    fs.writeFileSync(path.join(extra, '.ready'), '');
  }
  const modules = runnerModules(runner);
  const installed = path.join(extra, 'node_modules');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, '.bin'), { recursive: true });
  // The runner's own packages win a name both hold: the runner is what the tests pin.
  for (const from of [modules, installed]) {
    for (const e of fs.readdirSync(from)) if (e !== '.bin' && !fs.existsSync(path.join(dir, e))) fs.symlinkSync(path.join(from, e), path.join(dir, e));
    const bin = path.join(from, '.bin');
    if (fs.existsSync(bin)) for (const e of fs.readdirSync(bin)) if (!fs.existsSync(path.join(dir, '.bin', e))) fs.symlinkSync(fs.realpathSync(path.join(bin, e)), path.join(dir, '.bin', e));
  }
  fs.writeFileSync(path.join(dir, '.ready'), '');
  return dir;
}

const TYPESCRIPT = '5.9.3';

/** The project at its pinned commit, ready to copy; cloned on first use. */
export function pristine(p: Project): string {
  const dir = path.join(CACHE, `${p.name}-${p.commit.slice(0, 12)}`);
  if (fs.existsSync(path.join(dir, '.ready'))) return dir;
  const mirror = path.join(MIRRORS, p.repo.replace('/', '+'), 'repo');
  if (!fs.existsSync(mirror)) throw new Error(`${p.repo} is not fetched: its mirror ${mirror} is missing (fetch github:${p.repo}, or set GREENLOOP_BENCH_MIRRORS).`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(CACHE, { recursive: true });
  execFileSync('git', ['clone', '-q', '--no-checkout', mirror, dir], { stdio: 'pipe' });
  git(dir, 'checkout', '-q', '-b', 'bench', p.commit);
  fs.writeFileSync(path.join(dir, '.ready'), `${p.commit}\n`);
  return dir;
}

export interface Workspace { cwd: string; dir: string; dispose(): void }

/** A fresh repository with the bug's line changed and committed (the line must be there exactly once). */
export function startWorkspace(p: Project, bug: Bug | null): Workspace {
  const source = pristine(p);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gl-context-${p.name}-`));
  const cwd = path.join(dir, p.name);
  try {
    git(dir, 'clone', '-q', source, cwd);
    // The runner is not part of the project's tree: git ignores node_modules here as in every JS project.
    if (p.runner) {
      const packages = [...(p.packages ?? []), ...(bug?.kind === 'type error' ? [`typescript@${TYPESCRIPT}`] : [])];
      fs.symlinkSync(packages.length ? withPackages(p.runner, packages) : runnerModules(p.runner), path.join(cwd, 'node_modules'));
    }
    fs.appendFileSync(path.join(cwd, '.git', 'info', 'exclude'), '\nnode_modules\n__pycache__/\n*.pyc\n.pytest_cache/\n');
    if (bug) {
      inject(cwd, bug);
      git(cwd, 'commit', '-qam', `bench: ${bug.id}`);
    }
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return { cwd, dir, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Replaces the one line that is exactly `bug.line` (whitespace aside) with `bug.wrong`, keeping its indentation. */
export function inject(cwd: string, bug: Bug): void {
  const file = path.join(cwd, bug.file);
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const at = lines.flatMap((l, i) => (l.trim() === bug.line.trim() ? [i] : []));
  if (at.length !== 1) throw new Error(`${bug.id}: the line ${JSON.stringify(bug.line)} is in ${bug.file} ${at.length} times, not once.`);
  const indent = /^\s*/.exec(lines[at[0]])![0];
  lines[at[0]] = indent + bug.wrong.trim();
  // The wrong line is found in the prompt by its text: it must be the only such line of the file.
  if (lines.filter((l) => l.trim() === bug.wrong.trim()).length !== 1) throw new Error(`${bug.id}: the wrong line ${JSON.stringify(bug.wrong)} is already elsewhere in ${bug.file}.`);
  fs.writeFileSync(file, lines.join('\n'));
}

/** The wrong line and its neighbours (the nearest non-blank line above and below), as they are in the workspace. */
export function wrongLine(cwd: string, bug: Bug): { line: string; above: string | null; below: string | null; lineNo: number } {
  const lines = fs.readFileSync(path.join(cwd, bug.file), 'utf8').split('\n').map((l) => l.trim());
  const i = lines.indexOf(bug.wrong.trim());
  const near = (from: number, step: number) => {
    for (let j = from + step; j >= 0 && j < lines.length; j += step) if (lines[j]) return lines[j];
    return null;
  };
  return { line: lines[i], above: near(i, -1), below: near(i, 1), lineNo: i + 1 };
}
