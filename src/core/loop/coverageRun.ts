// Where the failing tests went, before the first prompt (issues 31 and 40). When no stack frame of the baseline names
// the code under test (an assertion in the test itself, a runner that prints no frames), the baseline's failing tests
// run once more on their own with the runner's coverage, then the passing tests of their files, and the lines are
// ranked by Ochiai over both: a line only the failing tests run comes first, the entry point every test runs after it.
// Its price: the covered runs together may take 30 % of the baseline's test time or 5 s, whichever is more (a wasted
// model call costs seconds and thousands of tokens), and are stopped at that deadline; whether they were used, what
// they cost, and why not, is the report's `coverage`.
import type { RunState } from '../../ports/runState';
import type { CoverageNote } from '../../ports/codeContext';
import type { CoverageCollected, TestTarget } from '../../ports/verifier';
import { isAbortError } from '../../base/abort';
import { matchesProtected } from '../edits/pathPolicy';
import { witnessHints } from '../prompt/codeHints';
import { runSignal, type LoopContext } from './loopContext';
import { targetsOf } from './steps/targeted';
import { addTestTime, testsIn, testTimeOf } from './testRuns';

/** Coverage may add at most this share of the run it rides on (the baseline's test time). */
export const MAX_COVERAGE_COST = 0.3;

/**
 * The covered runs may always take this long: a model call that misses the bug costs more (seconds, and thousands of
 * tokens), and 30 % of a small suite's second is spent starting a process. Before issue 40 a suite under 10 s was never measured.
 */
export const MIN_COVERAGE_ALLOWANCE_MS = 5_000;
/** Of what a time budget has left, the covered runs may take at most this share: the model's attempts need the rest. */
const MAX_BUDGET_SHARE = 0.1;
/** Passing tests run beside the failing ones, at most: the selection is a command line. */
const MAX_PASSING_TESTS = 200;

/**
 * How long the covered runs may take together: 30 % of the baseline's test time or the floor (5 s unless the run's
 * config says otherwise), whichever is more.
 */
export function coverageAllowanceMs(baselineMs: number, floorMs = MIN_COVERAGE_ALLOWANCE_MS): number {
  return Math.max(floorMs, Math.floor(baselineMs * MAX_COVERAGE_COST));
}

/** The rule in words, for the report. */
function ruleWords(baselineMs: number, floorMs: number): string {
  return `${Math.round(MAX_COVERAGE_COST * 100)} % of the baseline's ${baselineMs} ms or ${floorMs / 1000} s, whichever is more`;
}

/** The report's sentence for covered runs that finished: what they took beside the baseline. */
export function coverageCostWords(baselineMs: number, coveredMs: number, floorMs = MIN_COVERAGE_ALLOWANCE_MS): string {
  return `the covered runs took ${coveredMs} ms, ${Math.round((coveredMs / Math.max(1, baselineMs)) * 100)} % of the baseline's ${baselineMs} ms (at most ${coverageAllowanceMs(baselineMs, floorMs)} ms: ${ruleWords(baselineMs, floorMs)})`;
}

/**
 * The spectrum's passing side: the baseline's passing tests of the failing tests' files (a test id that names its
 * file, pytest's `path::name`, only with its own file). Ids without a file run in each failing file, where the
 * runner's selection matches the ones that are there.
 */
export function passingTargets(state: RunState): TestTarget[] {
  const best = state.best.witness;
  const files = [...new Set(best.failures.map((f) => f.file).filter((f): f is string => !!f))];
  if (!files.length || !best.ran?.length) return [];
  const not = new Set([...best.failing, ...(best.skipped ?? []), ...state.flaky]);
  const out: TestTarget[] = [];
  for (const id of best.ran) {
    if (not.has(id)) continue;
    const own = files.find((f) => id.startsWith(`${f}::`));
    if (own) out.push({ id, file: own });
    else if (!id.includes('::')) for (const file of files) out.push({ id, file });
    if (out.length >= MAX_PASSING_TESTS) break;
  }
  return out;
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
  const budgetShare = Math.floor((ctx.deadline?.remainingMs() ?? Infinity) * MAX_BUDGET_SHARE);
  const floorMs = ctx.deps.config.coverageFloorMs ?? MIN_COVERAGE_ALLOWANCE_MS;
  const allowance = Math.min(coverageAllowanceMs(baselineMs, floorMs), budgetShare);
  // The budget's share is too small only below the 5 s a covered run needs, whatever floor the config raised.
  if (allowance < MIN_COVERAGE_ALLOWANCE_MS && allowance < coverageAllowanceMs(baselineMs, floorMs)) {
    return note({ used: false, baselineMs, why: `skipped: the time budget leaves ${Math.round(budgetShare / MAX_BUDGET_SHARE / 1000)} s, and covered runs may take at most ${Math.round(MAX_BUDGET_SHARE * 100)} % of it` });
  }
  ran = true;
  const signal = runSignal(ctx);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), allowance);
  const both = AbortSignal.any([signal, deadline.signal]);
  ctx.events.emit({ type: 'phase', phase: 'coverage-tests' });
  try {
    const covered = await verifier.verifyTargeted(targets, both, { coverage: true });
    if (!covered.ok) return note({ used: false, why: `skipped: the failing tests cannot be run on their own (${covered.why})` });
    addTestTime(state, covered.witness);
    let measured = covered.coverage;
    if (!measured || !measured.ok) return note({ used: false, why: `skipped: ${measured ? measured.why : 'the verifier measured no coverage'}` });
    let coveredMs = testTimeOf(covered.witness);
    const passing = await passingRun(ctx, state, measured, both, { deadline: deadline.signal, run: signal });
    coveredMs += passing.ms;
    if (passing.collected) measured = passing.collected;
    const ranking = measured.units.passing > 0 ? ('ochiai' as const) : ('executed' as const);
    // The model may not edit the tests: their lines would only crowd out the code under test.
    const hints = measured.hints.filter((h) => !isTest(h.path));
    state.codeHints = [...(state.codeHints ?? []).filter((h) => h.source !== 'coverage'), ...hints];
    const rankedBy = ranking === 'ochiai' ? `Ochiai, beside a covered run of the same files' passing tests (${passing.tests} ran)` : `the failing tests alone (${passing.why})`;
    note({
      used: true, tool: measured.tool, baselineMs, coveredMs, hints: hints.length, ranking, passingTests: passing.collected ? passing.tests : 0,
      why: `${measured.tool}: ${hints.length} lines the failing tests executed, ranked by ${rankedBy}; ${coverageCostWords(baselineMs, coveredMs, floorMs)}`,
    });
  } catch (err) {
    if (signal.aborted) throw err;
    if (deadline.signal.aborted) {
      return note({ used: false, baselineMs, coveredMs: allowance, why: `skipped: the covered run of the failing tests passed ${allowance} ms (${ruleWords(baselineMs, floorMs)}) and was stopped there` });
    }
    if (isAbortError(err)) throw err;
    note({ used: false, why: `skipped: the covered run failed (${(err as Error).message})` });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The passing side of the spectrum, within what is left of the same deadline: when it is cut, fails or has nothing to
 * run, the failing tests' coverage is ranked alone and the report says why.
 */
async function passingRun(ctx: LoopContext, state: RunState, failing: Extract<CoverageCollected, { ok: true }>, signal: AbortSignal, stops: { deadline: AbortSignal; run: AbortSignal }): Promise<{ collected?: Extract<CoverageCollected, { ok: true }>; tests: number; ms: number; why: string }> {
  const targets = passingTargets(state);
  if (!targets.length) return { tests: 0, ms: 0, why: 'no test of their files passed in the baseline' };
  const tests = new Set(targets.map((t) => t.id)).size;
  const started = Date.now();
  try {
    const run = await ctx.deps.verifier.verifyTargeted!(targets, signal, { coverage: true, passingBeside: failing.spectrum });
    if (!run.ok) return { tests, ms: 0, why: `the passing tests cannot be run on their own: ${run.why}` };
    addTestTime(state, run.witness);
    const ms = testTimeOf(run.witness);
    if (!run.coverage?.ok) return { tests, ms, why: `the passing tests' coverage was not read: ${run.coverage ? run.coverage.why : 'none measured'}` };
    // What ran, not what was asked for: a name that lives in another file matches nothing here.
    return { collected: run.coverage, tests: testsIn(run.witness), ms, why: '' };
  } catch (err) {
    if (!stops.deadline.aborted || stops.run.aborted) throw err;
    return { tests, ms: Date.now() - started, why: `the covered run of ${tests} passing tests was stopped at the deadline` };
  }
}
