import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { ceiling } from './patience';
import { removeOnExit } from './processGroup';

const execFileP = promisify(execFile);
export const fixturesDir = join(__dirname, '..', 'fixtures');
/** The small projects the CLI tests use too (test/fixtures/projects), e.g. `calc`. */
const sharedProjectsDir = join(__dirname, '..', '..', 'fixtures', 'projects');

/** A folder of temp workspaces for one spec file; each scenario copies a fixture into its own. */
export class WorkspaceFarm {
  readonly root = mkdtempSync(join(tmpdir(), 'greenloop-e2e-ws-'));
  private readonly forget = removeOnExit(this.root);

  /** Copies test/e2e/fixtures/<fixture> (or test/fixtures/projects/<fixture>) to a fresh folder named `name` and returns its path. */
  copy(fixture: string, name: string): string {
    const dir = join(this.root, name);
    const own = join(fixturesDir, fixture);
    cpSync(existsSync(own) ? own : join(sharedProjectsDir, fixture), dir, { recursive: true });
    return dir;
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
    this.forget();
  }
}

/** Every file under `dir` (relative path → bytes as base64), for byte-for-byte comparisons. */
export function treeBytes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else out[relative(dir, path)] = readFileSync(path).toString('base64');
    }
  };
  walk(dir);
  return out;
}

export interface TestRun {
  code: number;
  output: string;
}

/** Runs the workspace's own tests (`npm test`) the way a person would check the result in a terminal. */
export async function runTestsOnDisk(dir: string): Promise<TestRun> {
  try {
    const { stdout, stderr } = await execFileP('npm', ['test', '--silent'], { cwd: dir, timeout: ceiling(60_000) });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}
