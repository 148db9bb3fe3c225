// A fresh mathjs workspace per loop: a real git repository cloned from the prepared one (setup.sh), the scenario's
// bugs injected and committed, so the loop starts from a clean tree as a user's would.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyEdits } from './scenarios';
import type { Scenario } from './scenarios';

export interface Workspace {
  /** The repository the loop works on. */
  cwd: string;
  /** A private folder beside it (the loop's state folder goes here). */
  dir: string;
  dispose(): void;
}

/** The prepared, untouched mathjs checkout (runs setup.sh, which does nothing when it is ready). */
export function preparedMathjs(): string {
  const out = execFileSync('bash', [path.join(__dirname, 'setup.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return out.trim().split('\n').pop()!;
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', '-c', 'commit.gpgsign=false', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });

export function startWorkspace(pristine: string, scenario: Scenario, scope: string): Workspace {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gl-testtime-${scenario.key}-${scope}-`));
  const cwd = path.join(dir, 'mathjs');
  try {
    // A local clone shares the object files; checking out writes every source and test file anew.
    const commit = git(pristine, 'rev-parse', 'HEAD').toString().trim();
    git(dir, 'clone', '-q', '--no-checkout', pristine, cwd);
    git(cwd, 'checkout', '-q', '-b', 'bench', commit);
    // node_modules is ignored by the project's .gitignore and only read by the tests: hard links cost no copy.
    execFileSync('cp', ['-al', path.join(pristine, 'node_modules'), path.join(cwd, 'node_modules')]);
    applyEdits(cwd, scenario.start);
    git(cwd, 'commit', '-qam', `bench: inject ${scenario.start.length} bug(s)`);
    const dirty = git(cwd, 'status', '--porcelain').toString().trim();
    if (dirty) throw new Error(`the fresh workspace is not clean after the commit: ${dirty.split('\n')[0]}`);
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return { cwd, dir, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
