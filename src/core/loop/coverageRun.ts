// Where the failing tests went, before the first prompt (issue 31). When no stack frame of the baseline names the code
// under test (an assertion in the test itself, a runner that prints no frames), the baseline's failing tests run once
// more on their own with the runner's coverage, and the lines they executed become the state's code hints (source
// 'coverage'). Its price is set by the run Greenloop makes anyway — the baseline: the covered run may take at most
// 30 % of the baseline's test time, and is stopped at that deadline, so it never costs more; whether it was used, and
// why not, is the report's `coverage`.
import type { RunState } from '../../ports/runState';
import type { CoverageNote } from '../../ports/codeContext';
import { isAbortError } from '../../base/abort';
import { matchesProtected } from '../edits/pathPolicy';
import { witnessHints } from '../prompt/codeHints';
import { runSignal, type LoopContext } from './loopContext';
import { targetsOf } from './steps/targeted';
import { addTestTime, testTimeOf } from './testRuns';

/** Coverage may add at most this share of the run it rides on (the baseline's test time). */
export const MAX_COVERAGE_COST = 0.3;

/**
 * Coverage is tried from a baseline this long on: 30 % of it (3 s) leaves a covered run room to finish, where 30 % of a
 * small suite's second is spent starting the process and killing it. A small suite's failures are near enough to their
 * stack frames and the call graph; a big one's (the suites that take minutes) are where coverage pays.
 */
export const MIN_COVERAGE_BASELINE_MS = 10_000;

/** How long the covered run may take: 30 % of the baseline's test time, in whole milliseconds. */
export function coverageAllowanceMs(baselineMs: number): number {
  return Math.floor(baselineMs * MAX_COVERAGE_COST);
}

/** The report's sentence for a covered run that finished: what it took beside the baseline. */
export function coverageCostWords(baselineMs: number, coveredMs: number): string {
  return `the covered run took ${coveredMs} ms, ${Math.round((coveredMs / Math.max(1, baselineMs)) * 100)} % of the baseline's ${baselineMs} ms (at most ${Math.round(MAX_COVERAGE_COST * 100)} %)`;
}

export async function collectCoverage(ctx: LoopContext, state: RunState): Promise<void> {
  const { verifier, actor } = ctx.deps;
  // Said as a progress line only once a covered run was made: a run with nothing to measure gets no extra line.
  let ran = false;
  const note = (n: CoverageNote): void => {
    state.coverage = n;
    if (ran) ctx.events.emit({ type: 'coverage', note: n });
  };
  if (!verifier.verifyTargeted || actor.external) return note({ used: false, why: 'skipped: this verifier cannot run the failing tests on their own' });
  const isTest = (rel: string) => matchesProtected(ctx.policy, rel);
  if (witnessHints(state.best.witness, state.cwd, isTest).some((h) => (h.source === 'stack' || h.source === 'diagnostic') && h.line && !isTest(h.path))) {
    return note({ used: false, why: "skipped: the failing tests' stack frames already name lines of the code under test" });
  }
  const targets = targetsOf(state);
  if (!targets) return note({ used: false, why: 'skipped: the baseline has no failing tests that are all that is wrong with it (diagnostics, files that did not load)' });
  // Right after the baseline, the run's test time is the baseline's alone.
  const baselineMs = state.testMs ?? 0;
  if (baselineMs < MIN_COVERAGE_BASELINE_MS) {
    return note({ used: false, baselineMs, why: `skipped: the baseline took ${baselineMs} ms; coverage is tried from ${MIN_COVERAGE_BASELINE_MS / 1000} s on, where ${Math.round(MAX_COVERAGE_COST * 100)} % of it leaves a covered run room to finish` });
  }
  const allowance = coverageAllowanceMs(baselineMs);
  ran = true;
  const signal = runSignal(ctx);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), allowance);
  ctx.events.emit({ type: 'phase', phase: 'coverage-tests' });
  try {
    const covered = await verifier.verifyTargeted(targets, AbortSignal.any([signal, deadline.signal]), { coverage: true });
    if (!covered.ok) return note({ used: false, why: `skipped: the failing tests cannot be run on their own (${covered.why})` });
    addTestTime(state, covered.witness);
    const measured = covered.coverage;
    if (!measured || !measured.ok) return note({ used: false, why: `skipped: ${measured ? measured.why : 'the verifier measured no coverage'}` });
    const coveredMs = testTimeOf(covered.witness);
    const ranking = measured.units.passing > 0 ? ('ochiai' as const) : ('executed' as const);
    // The model may not edit the tests: their lines would only crowd out the code under test.
    const hints = measured.hints.filter((h) => !isTest(h.path));
    state.codeHints = [...(state.codeHints ?? []).filter((h) => h.source !== 'coverage'), ...hints];
    note({
      used: true, tool: measured.tool, baselineMs, coveredMs, hints: hints.length, ranking,
      why: `${measured.tool}: ${hints.length} lines the failing tests executed, ranked by ${ranking === 'ochiai' ? 'Ochiai' : 'the failing tests alone (no passing run measured)'}; ${coverageCostWords(baselineMs, coveredMs)}`,
    });
  } catch (err) {
    if (signal.aborted) throw err;
    if (deadline.signal.aborted) {
      return note({ used: false, baselineMs, why: `skipped: the covered run of the failing tests passed ${allowance} ms, ${Math.round(MAX_COVERAGE_COST * 100)} % of the baseline's ${baselineMs} ms, and was stopped there` });
    }
    if (isAbortError(err)) throw err;
    note({ used: false, why: `skipped: the covered run failed (${(err as Error).message})` });
  } finally {
    clearTimeout(timer);
  }
}
