// `python -m unittest` measured by coverage.py in the same process (common/pyCoverage.ts); Django's `manage.py test`
// sets itself up first, so it is not.
import * as fs from 'fs';
import * as path from 'path';
import type { CoveragePlan, PlanContext } from '../runner';
import type { Words } from '../../base/commandWords';
import { runFailed, scratch } from '../common/coveragePlans';
import { moduleUnderCoverage, readCoverageJson } from '../common/pyCoverage';

export function unittestPlan(prefix: Words, ctx: PlanContext): CoveragePlan | { why: string } {
  const at = prefix.length - 3;
  if (at < 0 || prefix[at + 1] !== '-m' || prefix[at + 2] !== 'unittest') return { why: "Django's test runner is not measured (only `python -m unittest` is run under coverage.py)" };
  const python = prefix[at];
  const dir = scratch();
  const report = path.join(dir, 'coverage.json');
  return {
    tool: 'coverage.py',
    env: {},
    wrap: (words, args) => ({ prefix: [...words.slice(0, at), python, '-c', moduleUnderCoverage('unittest', report)], args }),
    read: async (w) => readCoverageJson(report, ctx.cwd, runFailed(w), python),
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
