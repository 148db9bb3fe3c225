// The projects' pristine copies (cloned once from the fetched mirrors into ~/.cache/greenloop-bench/context, with a
// project's offline set-up committed) and a fresh git workspace per mutant: the pristine tree with the one line
// changed and committed, as a user's repository.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Project } from './projects';
import type { Mutant } from './mutate';

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

/** The project at its pinned commit, ready to copy; cloned on first use. */
export function pristine(p: Project): string {
  const dir = path.join(CACHE, `${p.name}-${p.commit.slice(0, 12)}`);
  // The set-up is part of what is cached: a changed one (a test file more left out) makes the tree again.
  const ready = `${p.commit}\n${p.setup ?? ''}`;
  if (fs.existsSync(path.join(dir, '.ready')) && fs.readFileSync(path.join(dir, '.ready'), 'utf8') === ready) return dir;
  const mirror = path.join(MIRRORS, p.repo.replace('/', '+'), 'repo');
  if (!fs.existsSync(mirror)) throw new Error(`${p.repo} is not fetched: its mirror ${mirror} is missing (fetch github:${p.repo}, or set GREENLOOP_BENCH_MIRRORS).`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(CACHE, { recursive: true });
  execFileSync('git', ['clone', '-q', '--no-checkout', mirror, dir], { stdio: 'pipe' });
  git(dir, 'checkout', '-q', '-b', 'bench', p.commit);
  if (p.setup) {
    execFileSync('bash', ['-c', p.setup], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'bench: offline set-up', '--allow-empty');
  }
  fs.writeFileSync(path.join(dir, '.ready'), ready);
  return dir;
}

export interface Workspace { cwd: string; dir: string; dispose(): void }

/** A fresh repository of the pristine tree, with the mutant's line changed and committed when there is one. */
export function startWorkspace(p: Project, mutant: Mutant | null): Workspace {
  const source = pristine(p);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gl-context-${p.name}-`));
  const cwd = path.join(dir, p.name);
  try {
    git(dir, 'clone', '-q', source, cwd);
    // The runner is not part of the project's tree: git ignores node_modules here as in every JS project.
    if (p.runner) fs.symlinkSync(p.packages?.length ? withPackages(p.runner, p.packages) : runnerModules(p.runner), path.join(cwd, 'node_modules'));
    fs.appendFileSync(path.join(cwd, '.git', 'info', 'exclude'), '\nnode_modules\n__pycache__/\n*.pyc\n.pytest_cache/\ntarget/\nbuild/\n');
    if (mutant) {
      applyMutant(cwd, mutant);
      git(cwd, 'commit', '-qam', `bench: ${mutant.id}`);
    }
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return { cwd, dir, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Replaces the mutant's line (which must still read as it was drawn) with its mutated text. */
export function applyMutant(cwd: string, m: Mutant): void {
  const file = path.join(cwd, m.file);
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  if (lines[m.line - 1] !== m.before) throw new Error(`${m.id}: ${m.file}:${m.line} is not the line it was drawn from.`);
  lines[m.line - 1] = m.after;
  fs.writeFileSync(file, lines.join('\n'));
}

/** Puts the mutant's line back as it was. */
export function revertMutant(cwd: string, m: Mutant): void {
  const file = path.join(cwd, m.file);
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines[m.line - 1] = m.before;
  fs.writeFileSync(file, lines.join('\n'));
}

/** The mutated line and its neighbours (the nearest non-blank line above and below), trimmed, as measure() takes them. */
export function mutatedLine(m: Mutant, lines: readonly string[]): { line: string; above: string | null; below: string | null } {
  const t = lines.map((l) => l.trim());
  const i = m.line - 1;
  const near = (step: number) => {
    for (let j = i + step; j >= 0 && j < t.length; j += step) if (t[j]) return t[j];
    return null;
  };
  return { line: m.after.trim(), above: near(-1), below: near(1) };
}
