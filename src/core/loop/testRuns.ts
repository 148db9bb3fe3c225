// What each test run of an attempt cost, for the record and the report (`testRuns`, `testMs`): the runs are counted
// where they are made, through one wrapper, so a new kind of re-run cannot be left out of the total.
import type { Verifier, Witness } from '../../ports/verifier';
import type { IterationRecord, RunState, TestRun } from '../../ports/runState';

/**
 * How many tests a run executed (passed or failed; a test a selection left out is reported as skipped by some
 * runners, and did not run): the tests it named, else its counts, else its failures.
 */
export function testsIn(w: Pick<Witness, 'ran' | 'skipped' | 'passedCount' | 'failedCount' | 'failing'>): number {
  if (w.ran) {
    const skipped = new Set(w.skipped);
    return w.ran.filter((id) => !skipped.has(id)).length;
  }
  return w.passedCount !== null ? w.passedCount + (w.failedCount ?? 0) : w.failing.length;
}

export function noteTestRun(state: RunState, record: IterationRecord | null, w: Witness, command?: string): void {
  const run: TestRun = { scope: w.scope ?? 'full', tests: testsIn(w), ms: testTimeOf(w), ...(command ? { command } : {}) };
  if (record) (record.testRuns ??= []).push(run);
  addTestTime(state, w);
}

/** Test time is the test command's: the type check and the other checkers that follow it are not tests. */
export function testTimeOf(w: Pick<Witness, 'durationMs' | 'testDurationMs'>): number {
  return w.testDurationMs ?? w.durationMs;
}

export function addTestTime(state: RunState, w: Pick<Witness, 'durationMs' | 'testDurationMs'>): void {
  state.testMs = (state.testMs ?? 0) + testTimeOf(w);
}

/** The verifier as an attempt uses it: every run it makes lands in the attempt's record. */
export function recording(verifier: Verifier, state: RunState, record: IterationRecord): Verifier {
  const wrapped: Verifier = {
    verify: async (signal, opts) => {
      const w = await verifier.verify(signal, opts);
      noteTestRun(state, record, w);
      return w;
    },
  };
  if (verifier.rerun) {
    const rerun = verifier.rerun.bind(verifier);
    wrapped.rerun = async (ids, signal) => {
      const w = await rerun(ids, signal);
      noteTestRun(state, record, w);
      return w;
    };
  }
  if (verifier.verifyTargeted) {
    const targeted = verifier.verifyTargeted.bind(verifier);
    wrapped.verifyTargeted = async (targets, signal, opts) => {
      const run = await targeted(targets, signal, opts);
      if (run.ok) noteTestRun(state, record, run.witness, run.command);
      return run;
    };
  }
  return wrapped;
}
