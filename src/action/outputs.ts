// The step outputs of one run (GITHUB_OUTPUT), named like the report's fields. Counts are '' when the run never
// measured them (it could not start), never a 0 that would read as "nothing fails".
import { isFullReport } from './runFacts';
import type { RunFacts } from './runFacts';

export type OutputName = 'outcome' | 'reason' | 'attempts' | 'failing-before' | 'failing-after' | 'patch-path' | 'report-path';

export function outputsFor(facts: RunFacts): Record<OutputName, string> {
  const { report } = facts;
  const full = isFullReport(report);
  return {
    outcome: report.outcome,
    reason: report.reason ?? '',
    // The project's own fixers (attempt 0) are no attempt of the budget.
    attempts: String(report.iterations.filter((it) => it.actor !== 'autofix').length),
    'failing-before': full ? String(report.baseline.failing.length) : '',
    'failing-after': full ? String(report.final.failing.length) : '',
    'patch-path': facts.patch?.path ?? '',
    'report-path': facts.reportPath,
  };
}
