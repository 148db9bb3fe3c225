// go test measured with its own -coverprofile: one profile for the whole run, read by goCoverage.ts.
import * as fs from 'fs';
import * as path from 'path';
import type { CoveragePlan, PlanContext } from '../runner';
import { runFailed, scratch } from '../common/coveragePlans';
import { readGoProfile } from './goCoverage';

export function goPlan(ctx: PlanContext): CoveragePlan {
  const dir = scratch();
  const profile = path.join(dir, 'cover.out');
  return {
    tool: 'go -coverprofile',
    env: {},
    // Every package of the module, not only the one under test: the bug may sit in a package the test imports.
    wrap: (prefix, args) => ({ prefix, args: [`-coverprofile=${profile}`, '-coverpkg=./...', ...args] }),
    read: async (w) => readGoProfile(profile, ctx.cwd, runFailed(w)),
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
