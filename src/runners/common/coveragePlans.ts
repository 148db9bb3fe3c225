// How a targeted run is made to measure what it executes: V8's own coverage for the node-based runners (an environment
// variable, nothing in the command changes), and the tools every room's plan uses. The rooms' own plans (go's
// -coverprofile, coverage.py around pytest and unittest) sit in their rooms; a room that cannot measure says why in one sentence.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Witness } from '../../ports/verifier';
import type { CoveragePlan, PlanContext } from '../runner';
import type { Words } from '../../base/commandWords';
import { readV8Coverage } from './v8Coverage';

export function scratch(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-coverage-'));
}

/** A unit failed when it loaded the file of a failing test; with no such file known, when the run failed at all. */
function verdictByFiles(failingFiles: ReadonlySet<string>, runFailed: boolean): (paths: ReadonlySet<string>) => boolean {
  return (paths) => (failingFiles.size ? [...failingFiles].some((f) => paths.has(f)) : runFailed);
}

export function runFailed(w: Pick<Witness, 'failing' | 'exitCode'>): boolean {
  return w.failing.length > 0 || (w.exitCode ?? 1) !== 0;
}

export function v8Plan(ctx: PlanContext): CoveragePlan {
  const dir = scratch();
  return {
    tool: 'V8',
    env: { NODE_V8_COVERAGE: dir },
    wrap: (prefix, args) => ({ prefix: withoutNpx(prefix, ctx.cwd), args }),
    read: async (w, failingFiles) => readV8Coverage(dir, ctx.cwd, verdictByFiles(failingFiles, runFailed(w))),
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * `npx mocha` runs the workspace's own node_modules/.bin/mocha when it has one: called directly, npx's own process
 * (all of npm's code) is not measured too, which costs more than the tests on a small suite.
 */
function withoutNpx(prefix: Words, cwd: string): Words {
  const at = prefix.length - 1;
  if (at < 1 || !/(^|\/)npx$/.test(prefix[at - 1]) || prefix[at].includes('/')) return prefix;
  const local = path.join('node_modules', '.bin', prefix[at]);
  return fs.existsSync(path.join(cwd, local)) ? [...prefix.slice(0, at - 1), local] : prefix;
}
