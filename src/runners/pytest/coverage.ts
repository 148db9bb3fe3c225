// pytest measured by coverage.py in the same process (common/pyCoverage.ts), when the python that runs it can be told.
import * as fs from 'fs';
import * as path from 'path';
import type { CoveragePlan, PlanContext } from '../runner';
import type { Words } from '../../base/commandWords';
import { runFailed, scratch } from '../common/coveragePlans';
import { moduleUnderCoverage, pythonOf, readCoverageJson } from '../common/pyCoverage';

export function pytestPlan(prefix: Words, ctx: PlanContext): CoveragePlan | { why: string } {
  const runner = prefix[prefix.length - 1] === 'pytest' && prefix[prefix.length - 2] === '-m' ? prefix[prefix.length - 3] : prefix[prefix.length - 1];
  const python = pythonOf(runner, ctx.env.PATH, ctx.cwd);
  if (!python) return { why: `the python that runs ${runner} could not be told (a version manager's shim, or not found); with \`python -m pytest\` as the test command it can` };
  const dir = scratch();
  const report = path.join(dir, 'coverage.json');
  const start = runner === prefix[prefix.length - 1] ? prefix.length - 1 : prefix.length - 3;
  return {
    tool: 'coverage.py',
    env: {},
    // One process, as `coverage run -m pytest` then `coverage json` would be three: python's start is most of a small suite's time.
    wrap: (words, args) => ({ prefix: [...words.slice(0, start), python, '-c', moduleUnderCoverage('pytest', report)], args }),
    read: async (w) => readCoverageJson(report, ctx.cwd, runFailed(w), python),
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
