// Runs the real, bundled `greenloop` CLI (dist/cli.js) as a child process, the way a user or script would.
import { spawn, execFileSync } from 'child_process';
import type { ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export const ROOT = path.join(__dirname, '..', '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
let built = false;

/**
 * Builds the bundle once per test process when a source is newer than it, so `mocha` alone tests the code as it is
 * now; after `npm run build` (as `npm test` runs it) the workers test the very bundle that ships instead of each
 * spending seconds of CPU on a build of its own.
 */
export function ensureCliBuilt(): string {
  if (!built) {
    if (!bundleIsFresh()) execFileSync(process.execPath, [path.join(ROOT, 'esbuild.js')], { cwd: ROOT, stdio: 'inherit' });
    built = true;
  }
  return CLI;
}

function bundleIsFresh(): boolean {
  if (!fs.existsSync(CLI)) return false;
  const builtAt = fs.statSync(CLI).mtimeMs;
  const newer = (file: string): boolean => fs.statSync(file).mtimeMs > builtAt;
  const sources = fs.readdirSync(path.join(ROOT, 'src'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return !['esbuild.js', 'package.json', 'package-lock.json'].some((f) => newer(path.join(ROOT, f)))
    && !sources.some((e) => newer(path.join(e.parentPath ?? e.path, e.name)));
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  return startCli(args, opts).done;
}

/** The CLI as a running process, for tests that signal it (Ctrl-C) while it works. */
export function startCli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {}): { child: ChildProcess; done: Promise<CliResult> } {
  const cli = ensureCliBuilt();
  // `npm run -s` passes loglevel=silent down to every npm the tests start, which would hide the npm errors they read.
  const { npm_config_loglevel: _silenced, ...inherited } = process.env;
  const child = spawn(process.execPath, [cli, ...args], { cwd: opts.cwd ?? ROOT, env: { ...inherited, ...opts.env } });
  const done = new Promise<CliResult>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
  child.stdin!.end(opts.input ?? '');
  return { child, done };
}

/** A temp copy of a fixture project, made a real git repository with one commit. */
export function tempProject(fixture: string, opts: { git?: boolean } = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `greenloop-${fixture}-`));
  fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'projects', fixture), dir, { recursive: true });
  if (opts.git !== false) {
    const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'fixture');
  }
  return dir;
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `greenloop-${prefix}-`));
}

/** Every file under dir (except .git) with its bytes, for byte-for-byte comparisons. */
export function treeBytes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.git' || e.name === 'node_modules') continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = fs.readFileSync(p).toString('base64');
    }
  };
  walk(dir);
  return out;
}

/** Gives `dir` this repository's TypeScript as its own node_modules/typescript (and .bin/tsc), as `npm install` would. */
export function linkTypescript(dir: string): void {
  fs.mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules', 'typescript'), path.join(dir, 'node_modules', 'typescript'));
  fs.symlinkSync('../typescript/bin/tsc', path.join(dir, 'node_modules', '.bin', 'tsc'));
}
