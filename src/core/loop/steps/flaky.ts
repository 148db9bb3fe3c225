// Before an edit is blamed for a test that newly fails, that test runs again on the same files: a test that passes
// on a re-run is flaky — named in the report, never counted as a regression (nor, later, as progress). A state whose
// only failures are tests already found flaky runs again whole, and is green if that run is. A green is confirmed by
// running again the tests that flipped to passing (the whole suite only where they cannot be singled out).
import type { Verifier } from '../../../ports/verifier';
import type { Witness } from '../../../ports/verifier';
import type { IterationRecord, RunState, WitnessSummary } from '../../../ports/runState';
import { judge, judgeOptions, listForNote } from '../../judge/witnessCompare';
import type { Judgement } from '../../judge/witnessCompare';
import type { FileChange } from '../../judge/checkedFiles';
import { abortError } from '../../../base/abort';
import { runSignal } from '../loopContext';
import type { LoopContext } from '../loopContext';
import { summarize } from '../../run/runStateFactory';
import { hiddenEdits } from './hiddenEdits';
import { targetedCoverage } from '../../judge/targetedCoverage';
import { recording } from '../testRuns';

export interface FlakyCheck {
  /** Tests that passed in a re-run after failing on the same files. */
  flaky: string[];
  /** Re-runs made. */
  reruns: number;
}

/**
 * The judgement of a verified state, after the re-runs that tell a flaky test from a broken one; a green verdict is
 * confirmed by one more run, so a fix that works only some of the time is never taken for green.
 */
export async function judgeWithReruns(ctx: LoopContext, state: RunState, record: IterationRecord, witness: WitnessSummary, created: readonly FileChange[] = []): Promise<{ j: Judgement; witness: WitnessSummary }> {
  const verifier = recording(ctx.deps.verifier, state, record);
  const judged = await judgeFlakyAware(ctx, state, record, witness, verifier, created);
  if (judged.j.verdict !== 'green' || ctx.deps.config.flakyReruns <= 0) return judged;
  // A check an outside agent asks for (a Stop hook, an MCP verify) answers while the agent waits, on every stop: it
  // runs the tests again only to judge a test that newly fails, never to confirm a green that nothing contradicts.
  if (ctx.deps.actor.external) return judged;
  const confirmed = await confirmByTarget(ctx, state, witness, verifier);
  if (confirmed === 'confirmed') return judged;
  const again = confirmed ?? summarize(await verifier.verify(runSignal(ctx)));
  const j = judge(state.best.witness, again, judgeOptions(state, created));
  // With a focus, green allows the failures outside it: the re-run is judged, not only read.
  if (again.green || j.verdict === 'green') return judged;
  // Only tests already found flaky failed the confirming run: the fix is not what fails, so the run may be repeated.
  if (j.verdict !== 'regression' && (await greenOnWholeReruns(ctx, state, again, verifier, created))) return judged;
  const failing = again.failing.length ? listForNote(again.failing) : 'the run';
  ctx.warn(state, `Attempt ${record.n} was green once, but not when run again on the same files (${failing} failed): a fix that works only some of the time is not green.`);
  return { j: { ...j, note: `green once, but not on a re-run of the same files: ${j.note}` }, witness: again };
}

/** `created`: what the attempt did to the files it wrote (createdFiles.ts), judged with every reading of this attempt's state. */
async function judgeFlakyAware(ctx: LoopContext, state: RunState, record: IterationRecord, witness: WitnessSummary, verifier: Verifier, created: readonly FileChange[]): Promise<{ j: Judgement; witness: WitnessSummary }> {
  const { config } = ctx.deps;
  const j = judge(state.best.witness, witness, judgeOptions(state, created));
  if (config.flakyReruns <= 0) return { j, witness };
  if (onlyFlakyFail(state, witness) && j.verdict !== 'regression') return (await greenOnWholeReruns(ctx, state, witness, verifier, created)) ?? { j, witness };
  if (j.verdict !== 'regression' || j.newTests.length === 0) return { j, witness };
  // Edits judged by their failing tests alone are still in the workspace, so the re-judge step (rejudge.ts) runs this
  // attempt again on the best state alone, and that run's new failures get their flaky re-runs there: re-running them
  // now, on a state about to be dropped, would only pay for them twice.
  if (ctx.deps.snapshots.replay && hiddenEdits(state).length) return { j, witness };
  const check = await findFlaky(verifier, j.newTests, config.flakyReruns, runSignal(ctx));
  if (check.flaky.length === 0) return { j, witness };
  record.flaky = check.flaky;
  state.flaky = [...new Set([...state.flaky, ...check.flaky])].sort();
  const one = check.flaky.length === 1;
  ctx.warn(state, `Flaky test${one ? '' : 's'} found in attempt ${record.n}: ${check.flaky.join(', ')}; ${one ? 'it counts' : 'they count'} neither as progress nor as regression.`);
  const again = judge(state.best.witness, witness, judgeOptions(state, created));
  const judged = { j: { ...again, note: `${again.note}; flaky (failed, then passed on re-run): ${listForNote(check.flaky)}` }, witness };
  // What still fails is only flaky: the state is judged as any such state is, by running it again whole.
  if (onlyFlakyFail(state, witness) && again.verdict !== 'regression') return (await greenOnWholeReruns(ctx, state, witness, verifier, created)) ?? judged;
  return judged;
}

function onlyFlakyFail(state: RunState, witness: WitnessSummary): boolean {
  return !witness.green && !witness.loadError && witness.diagnostics.length === 0 && witness.failing.length > 0 && witness.failing.every((id) => state.flaky.includes(id));
}

/** A state whose only failures are known flaky tests runs again whole, up to flakyReruns times: green if a run is. */
async function greenOnWholeReruns(ctx: LoopContext, state: RunState, witness: WitnessSummary, verifier: Verifier, created: readonly FileChange[]): Promise<{ j: Judgement; witness: WitnessSummary } | null> {
  if (!onlyFlakyFail(state, witness)) return null;
  for (let r = 0; r < ctx.deps.config.flakyReruns; r++) {
    const again = summarize(await verifier.verify(runSignal(ctx)));
    if (!again.green && !state.config.focus?.length) continue;
    const green = judge(state.best.witness, again, judgeOptions(state, created));
    if (green.verdict === 'green') {
      const which = `${listForNote(witness.failing)} failed first and ${witness.failing.length === 1 ? 'is' : 'are'} flaky`;
      return { j: { ...green, note: `${green.note} (on a re-run: ${which})` }, witness: again };
    }
  }
  return null;
}

/**
 * The tests that flipped to passing, run again on the same files: 'confirmed' when every one passes again; the
 * green witness with those that failed this time added, when one did; null when they cannot be singled out (the
 * caller then runs the whole suite again, as with `--verify-scope full`).
 */
async function confirmByTarget(ctx: LoopContext, state: RunState, witness: WitnessSummary, verifier: Verifier): Promise<'confirmed' | WitnessSummary | null> {
  if ((state.config.verifyScope ?? 'failing-first') !== 'failing-first' || !verifier.verifyTargeted) return null;
  const best = state.best.witness;
  if (best.loadError || best.loadErrorFiles?.length || best.diagnostics.length || best.unreadable) return null;
  const flipped = best.failures.filter((f) => !witness.failing.includes(f.id));
  if (flipped.length === 0) return null;
  const ids = flipped.map((f) => f.id);
  ctx.events.emit({ type: 'verifying', n: state.iterations.length + 1, scope: 'targeted', tests: ids.length, confirming: true });
  const run = await verifier.verifyTargeted(flipped.map((f) => ({ id: f.id, file: f.file, message: f.message })), runSignal(ctx));
  if (!run.ok) return null;
  const coverage = targetedCoverage(ids, run.witness);
  if (!coverage.complete || run.witness.loadError) return null;
  if (coverage.failing.length === 0) return 'confirmed';
  const now = summarize(run.witness);
  const failures = [...witness.failures, ...now.failures.filter((f) => coverage.failing.includes(f.id))].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { ...witness, green: false, failing: failures.map((f) => f.id), failures, outputExcerpt: now.outputExcerpt };
}

export async function findFlaky(verifier: Verifier, ids: readonly string[], maxReruns: number, signal: AbortSignal): Promise<FlakyCheck> {
  let open = [...ids];
  const flaky: string[] = [];
  let reruns = 0;
  while (open.length > 0 && reruns < maxReruns) {
    const w = verifier.rerun ? await verifier.rerun(open, signal) : await verifier.verify(signal);
    reruns++;
    if (signal.aborted) throw abortError(signal);
    const passed = open.filter((id) => passedIn(w, id));
    flaky.push(...passed);
    open = open.filter((id) => !passed.includes(id));
  }
  return { flaky, reruns };
}

/** Passed in this run: reported and not failing where the runner names its tests, else simply not failing. */
function passedIn(w: Witness, id: string): boolean {
  if (w.timedOut || w.loadError || w.failing.includes(id)) return false;
  if (w.ran) return w.ran.includes(id) && !w.skipped.includes(id);
  return true;
}
