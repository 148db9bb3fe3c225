// Where the failing tests went, before the first prompt (issue 31): the baseline's failing tests run on their own
// with coverage, then again without it — the same tests, the same command — and the coverage counts only when it
// cost at most 30 % more than the plain run. Its lines become the state's code hints (source 'coverage'); whether it
// was used, and why not, is the report's `coverage`.
import type { RunState } from '../../ports/runState';
import type { CoverageNote } from '../../ports/codeContext';
import { isAbortError } from '../../base/abort';
import { matchesProtected } from '../edits/pathPolicy';
import { runSignal, type LoopContext } from './loopContext';
import { targetsOf } from './steps/targeted';
import { addTestTime, testTimeOf } from './testRuns';

/** Coverage may add at most this much to the run it rides on. */
export const MAX_COVERAGE_COST = 0.3;

/** The cost rule, by the two runs' own times: used, or skipped with the measured ratio in words. */
export function coverageCost(plainMs: number, coveredMs: number): { used: boolean; why: string } {
  const pct = plainMs > 0 ? `${Math.round((coveredMs / plainMs - 1) * 100)} %` : 'an unmeasurable share';
  const measured = `the covered run took ${coveredMs} ms, the same tests without coverage ${plainMs} ms`;
  // Compared as a difference, not a quotient: 1300 / 1000 - 1 is a hair above 0.3 in floating point.
  return plainMs > 0 && coveredMs - plainMs <= plainMs * MAX_COVERAGE_COST
    ? { used: true, why: `coverage added ${pct} to the failing tests' run (${measured})` }
    : { used: false, why: `skipped: coverage would add ${pct} to the failing tests' run, more than the ${Math.round(MAX_COVERAGE_COST * 100)} % allowed (${measured})` };
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
  const targets = targetsOf(state);
  if (!targets) return note({ used: false, why: 'skipped: the baseline has no failing tests that are all that is wrong with it (diagnostics, files that did not load)' });
  ran = true;
  const signal = runSignal(ctx);
  ctx.events.emit({ type: 'phase', phase: 'coverage-tests' });
  try {
    const covered = await verifier.verifyTargeted(targets, signal, { coverage: true });
    if (!covered.ok) return note({ used: false, why: `skipped: the failing tests cannot be run on their own (${covered.why})` });
    addTestTime(state, covered.witness);
    const measured = covered.coverage;
    if (!measured || !measured.ok) return note({ used: false, why: `skipped: ${measured ? measured.why : 'the verifier measured no coverage'}` });
    const plain = await verifier.verifyTargeted(targets, signal);
    if (!plain.ok) return note({ used: false, why: `skipped: the failing tests could not be run again without coverage (${plain.why})` });
    addTestTime(state, plain.witness);
    const plainMs = testTimeOf(plain.witness);
    const coveredMs = testTimeOf(covered.witness);
    const cost = coverageCost(plainMs, coveredMs);
    const base = { tool: measured.tool, plainMs, coveredMs, ranking: measured.units.passing > 0 ? 'ochiai' as const : 'executed' as const };
    if (!cost.used) return note({ ...base, used: false, why: cost.why });
    // The model may not edit the tests: their lines would only crowd out the code under test.
    const hints = measured.hints.filter((h) => !matchesProtected(ctx.policy, h.path));
    state.codeHints = [...(state.codeHints ?? []).filter((h) => h.source !== 'coverage'), ...hints];
    note({ ...base, used: true, hints: hints.length, why: `${measured.tool}: ${hints.length} lines the failing tests executed, ranked by ${base.ranking === 'ochiai' ? 'Ochiai' : 'the failing tests alone (no passing run measured)'}; ${cost.why}` });
  } catch (err) {
    if (isAbortError(err) || signal.aborted) throw err;
    note({ used: false, why: `skipped: the covered run failed (${(err as Error).message})` });
  }
}
