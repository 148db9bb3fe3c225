// A real project in a temp folder, and a reach over it gated by the real path policy (tests readable, .git and the
// snapshot excludes not), as the loop builds it.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checkReadable, makePathPolicy } from '../../../../src/core/edits/pathPolicy';
import { DEFAULT_PROTECTED_GLOBS, DEFAULT_SNAPSHOT_EXCLUDES } from '../../../../src/shared/config';
import { reachFrom } from '../../../../src/context/imports';
import type { ReachedFile } from '../../../../src/ports/codeContext';

export class TempWorkspace {
  readonly root = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-reach-'));
  /** Files the gate refuses besides the policy's own rules (what git ignores). */
  readonly ignored = new Set<string>();
  readonly reads: string[] = [];

  write(files: Record<string, string>): this {
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(this.root, rel)), { recursive: true });
      fs.writeFileSync(path.join(this.root, rel), text);
    }
    return this;
  }

  async reach(tests: string[], hops = 3): Promise<ReachedFile[]> {
    const policy = makePathPolicy({ root: this.root, protectedGlobs: DEFAULT_PROTECTED_GLOBS, allowTestEdits: false, excludes: DEFAULT_SNAPSHOT_EXCLUDES });
    return reachFrom(tests, this.root, {
      hops,
      gate: (rel) => {
        this.reads.push(rel);
        if (this.ignored.has(rel)) return { ok: false, reason: `${rel} is ignored by git.` };
        return checkReadable(policy, rel);
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
