// Failing tests first: before the whole suite, only the tests failing in the best state run, narrowed by file and
// name. When none of them passes and nothing else in that run fails, the whole suite could not change the verdict —
// no progress — so the attempt is judged from that run alone: kept like any edit that did not help, never best, never
// green. A regression it may hide is found by the next whole-suite run (steps/rejudge.ts). Anything else — a target
// passing, a new failure, a run that did not show every target, a command that cannot be narrowed — goes on to the
// whole suite, exactly as with `--verify-scope full`.
import type { TestTarget, Witness } from '../../../ports/verifier';
import type { RunState, WitnessSummary } from '../../../ports/runState';
import { isAbortError } from '../../../base/abort';
import { targetedCoverage } from '../../judge/targetedCoverage';
import type { Judgement } from '../../judge/witnessCompare';
import { summarize } from '../../run/runStateFactory';
import { recordOf, type Attempt, type StepResult } from '../attempt';
import { runSignal, type LoopContext } from '../loopContext';
import { settle } from '../settle';
import { matchesProtected } from '../../edits/pathPolicy';
import { noteTestRun, testsIn } from '../testRuns';

export async function targeted(ctx: LoopContext, state: RunState, attempt: Attempt): Promise<StepResult> {
  const { verifier, actor } = ctx.deps;
  // An outside agent's check answers while it waits, on a state it made itself: judged whole, as before.
  if (!verifier.verifyTargeted || !failingFirst(state) || actor.external) return undefined;
  const targets = targetsOf(state);
  if (!targets) return undefined;
  const record = recordOf(attempt);
  // An edit to what decides which tests run and how (a test file, a runner's config, the test script: allowed with
  // --allow-test-edits) can make a narrowed run say anything: the whole suite judges it.
  if (await changesHowTestsRun(ctx, attempt.from.snapshot, attempt.after!.id)) return undefined;
  const signal = runSignal(ctx);
  // The chosen candidate was run so while it was tried (candidates/trial.ts): the same files, the same run.
  const tried = attempt.trialRun?.tree === attempt.after!.tree ? attempt.trialRun.run : null;
  let run: Awaited<ReturnType<NonNullable<typeof verifier.verifyTargeted>>>;
  if (tried) run = tried;
  else {
    ctx.events.emit({ type: 'verifying', n: attempt.n, scope: 'targeted', tests: targets.length });
    try {
      run = await verifier.verifyTargeted(targets, signal);
    } catch (err) {
      // A narrowed command that fails to run says nothing about the edit: the whole suite judges it, and tells.
      if (isAbortError(err) || signal.aborted) throw err;
      return undefined;
    }
    if (!run.ok) {
      ctx.warn(state, `The failing tests could not be run on their own (${run.why}); the whole suite runs instead.`);
      return undefined;
    }
    noteTestRun(state, record, run.witness, run.command);
  }
  const ids = targets.map((t) => t.id);
  if (!stillFailing(state, ids, run.witness)) {
    const coverage = targetedCoverage(ids, run.witness);
    if (coverage.complete) attempt.passedAlone = coverage.passing;
    return undefined;
  }

  const witness = targetedSummary(state, run.witness);
  const n = targets.length;
  const note = `${n === 1 ? 'the failing test still fails' : `the ${n} failing tests still fail`} (only ${n === 1 ? 'it' : 'they'} ran; the whole suite runs once one of them passes)`;
  const j: Judgement = { verdict: 'no-progress', newTests: [], newlyFailing: [], missing: [], fewerRan: null, fixed: [], newlyVisible: [], note };
  record.judgedBy = 'targeted';
  record.witness = witness;
  record.failing = witness.failing;
  record.loadErrorFiles = [];
  record.diagnostics = 0;
  record.ran = testsIn(run.witness);
  record.missing = [];
  record.note = attempt.actorNote ? `${note} (${attempt.actorNote})` : note;
  attempt.judged = { j, witness };
  attempt.settled = await settle(ctx, state, attempt.after!, record.files);
  attempt.verdict = attempt.settled.tampered.length ? 'regression' : 'no-progress';
  return undefined;
}

export async function changesHowTestsRun(ctx: LoopContext, from: string, after: string): Promise<boolean> {
  const changed = await ctx.deps.snapshots.changedBetween(from, after);
  return changed.some((p) => matchesProtected(ctx.policy, p) || /(^|\/)package\.json$/.test(p));
}

export function failingFirst(state: RunState): boolean {
  return (state.config.verifyScope ?? 'failing-first') === 'failing-first';
}

/**
 * The tests to run first: the best state's failing tests, when they are all that is wrong with it. A best state with
 * diagnostics, a file that does not load or output no parser read could make progress a targeted run cannot see:
 * those attempts run the whole suite. (A runner that names only its failures, or stopped at the first failing
 * binary, still names the tests that fail: whether they pass now is what the targeted run says.)
 */
export function targetsOf(state: RunState): TestTarget[] | null {
  const best = state.best.witness;
  if (best.green || best.loadError || best.loadErrorFiles?.length || best.diagnostics.length || best.checkFailures?.length) return null;
  if (best.unreadable || best.commandFailure || best.scope === 'targeted') return null;
  const flaky = new Set(state.flaky);
  const targets = best.failures.filter((f) => !flaky.has(f.id)).map((f) => ({ id: f.id, file: f.file, message: f.message }));
  return targets.length ? targets : null;
}

/** Every target ran and failed again, and nothing else the run showed fails that did not fail in the best state. */
export function stillFailing(state: RunState, ids: readonly string[], w: Witness): boolean {
  if (w.loadError || w.unreadable || w.timedOut) return false;
  const coverage = targetedCoverage(ids, w);
  if (!coverage.complete || coverage.passing.length > 0) return false;
  const before = new Set(state.best.witness.failing);
  return w.failing.every((id) => before.has(id));
}

/**
 * The state's witness as far as the targeted run knows it: the best state's failures, with what the run said of them
 * now (the next prompt shows the new messages), and marked targeted, so nothing takes it for a whole-suite verdict.
 */
function targetedSummary(state: RunState, w: Witness): WitnessSummary {
  const run = summarize(w);
  const best = state.best.witness;
  const now = new Map(run.failures.map((f) => [f.id, f]));
  const failures = best.failures.map((f) => now.get(f.id) ?? f);
  return { ...run, failing: best.failing, failures, ran: run.ran, scope: 'targeted', green: false };
}
