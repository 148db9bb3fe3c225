// A real project in a temp folder (a git repository), and a reach over it gated by the real path policy (tests
// readable, .git and the snapshot excludes not) and by git's own answer on what it ignores, as a run builds it.
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checkReadable, makePathPolicy } from '../../../../src/core/edits/pathPolicy';
import { DEFAULT_SNAPSHOT_EXCLUDES } from '../../../../src/shared/config';
import { DEFAULT_PROTECTED_GLOBS } from '../../../../src/session/protectedGlobs';
import { reachFrom } from '../../../../src/context/imports';
import type { ReachedFile } from '../../../../src/ports/codeContext';

export class TempWorkspace {
  readonly root = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-reach-'));
  /** Every path the gate was asked about, and every batch git was asked which it ignores. */
  readonly reads: string[] = [];
  readonly ignoreChecks: string[][] = [];

  constructor() {
    execFileSync('git', ['init', '-q'], { cwd: this.root });
  }

  write(files: Record<string, string>): this {
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(this.root, rel)), { recursive: true });
      fs.writeFileSync(path.join(this.root, rel), text);
    }
    return this;
  }

  async reach(tests: string[], hops = 3, maxFiles?: number): Promise<ReachedFile[]> {
    const policy = makePathPolicy({ root: this.root, protectedGlobs: DEFAULT_PROTECTED_GLOBS, allowTestEdits: false, excludes: DEFAULT_SNAPSHOT_EXCLUDES });
    return reachFrom(tests, this.root, {
      hops,
      maxFiles,
      gate: (rel) => {
        this.reads.push(rel);
        return checkReadable(policy, rel);
      },
      ignored: async (paths) => {
        this.ignoreChecks.push(paths);
        // What the snapshot store's unrecorded() asks: git's ignore rules alone.
        const out = spawnSync('git', ['check-ignore', '--no-index', '-z', '--stdin'], { cwd: this.root, input: paths.join('\0'), encoding: 'utf8' });
        return out.stdout.split('\0').filter(Boolean);
      },
    });
  }

  /** path@distance, in rank order: what a reader of the prompt would see first. */
  async order(tests: string[], hops = 3): Promise<string[]> {
    return (await this.reach(tests, hops)).map((f) => `${f.path}@${f.distance}`);
  }

  dispose(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}
