// Judges one verified state against the best so far: the progress witness of the contract. A test that stops
// being reported is missing, never fixed; diagnostics compare as a multiset; tests found flaky count for nothing.
import type { Verdict, WitnessSummary } from '../../ports/runState';
import { compareDiagnostics } from './diagnosticCompare';
import { passedIn, ranIn, whatWentMissing } from './whatRan';
import { missingChecked, movedOutOfReach } from './checkedFiles';
import type { FileChange } from './checkedFiles';
import { notLoadedText } from '../../shared/plainWords';
import { greenWords } from './cleanWords';

export interface Judgement {
  verdict: Exclude<Verdict, 'invalid-proposal'>;
  /** Tests failing now that did not fail in the best state (IDs only: these are what a flaky re-run checks). */
  newTests: string[];
  /** Tests or diagnostics failing now that were fine in the best state, as a person reads them. */
  newlyFailing: string[];
  /** Tests that ran in the best state and are not reported as run now (gone, deselected, now skipped). */
  missing: string[];
  /** Set when the runner names no tests and its count of executed tests dropped: [best, now]. */
  fewerRan: [number, number] | null;
  /** Tests or diagnostics fixed relative to the best state. */
  fixed: string[];
  /**
   * Tests failing now that did not run in the best state (a fail-fast runner stopped before them, or they are new):
   * newly visible, never a regression — nothing that passed broke.
   */
  newlyVisible: string[];
  note: string;
}

export interface JudgeOptions {
  /** Tests found flaky in this run: left out of both sides. */
  flaky?: readonly string[];
  /** The tests this run is for (LoopConfig.focus): see judgeFocused. */
  focus?: readonly string[];
  /**
   * What the attempt did to the files it wrote, from the best state (steps/createdFiles.ts): code that left the files
   * a checker analyses for a file of its language it does not analyse is out of its reach
   * (checkedFiles.movedOutOfReach). Absent: not judged.
   */
  written?: readonly FileChange[];
}

/** The options of every judgement of an attempt: the run's flaky tests and focus, the files the attempt created. */
export function judgeOptions(state: { flaky: readonly string[]; config: { focus?: readonly string[] } }, written?: readonly FileChange[]): JudgeOptions {
  return { flaky: state.flaky, focus: state.config.focus, written };
}

/**
 * The witness as the verdicts compare it: a test file that did not load counts as one failing entry named after the
 * file (as node --test itself reports it), so a file that stops loading, or loads again, weighs as it always did —
 * while everything a person reads counts such files apart from failing tests.
 */
export function judgedFailing(w: Pick<WitnessSummary, 'failing' | 'loadErrorFiles'>): string[] {
  return w.loadErrorFiles?.length ? [...w.failing, ...w.loadErrorFiles] : w.failing;
}

export function judge(bestWitness: WitnessSummary, nextWitness: WitnessSummary, opts: JudgeOptions = {}): Judgement {
  const best = { ...bestWitness, failing: judgedFailing(bestWitness) };
  const next = { ...nextWitness, failing: judgedFailing(nextWitness) };
  const flaky = new Set(opts.flaky ?? []);
  const none = { newTests: [], newlyFailing: [], missing: [], fewerRan: null, fixed: [], newlyVisible: [] };

  // A suite that stops loading hides every test: always a regression. One that starts loading again is progress
  // even though its failures now become visible.
  if (next.loadError && !best.loadError) {
    return { ...none, verdict: 'regression', newlyFailing: ['(the test suite no longer loads)'], note: 'the test suite no longer loads' };
  }
  // Below the floor of what ran: a test suite that runs less proves less, however green it looks.
  const gone = best.loadError ? { missing: [], fewerRan: null } : whatWentMissing(best, next, flaky);
  if (gone.missing.length || gone.fewerRan) {
    const what = gone.missing.length
      ? `${gone.missing.length} test${gone.missing.length === 1 ? '' : 's'} that ran before no longer ran: ${listForNote(gone.missing)}`
      : `fewer tests ran (${gone.fewerRan![0]} before, ${gone.fewerRan![1]} now)`;
    return { ...none, ...gone, verdict: 'regression', newlyFailing: gone.missing, note: what };
  }
  // A checker that could not say hides its errors as surely as a suite that does not load hides its tests.
  if (next.checkFailures?.length) {
    return { ...none, verdict: 'regression', newlyFailing: next.checkFailures, note: `a checker could not say: ${next.checkFailures.join(' ')}` };
  }
  // Below the floor of what was checked: code moved out of a checker's reach proves nothing about its errors.
  const unchecked = [...missingChecked(best, next), ...movedOutOfReach(opts.written ?? [], best, next)];
  if (unchecked.length) {
    return { ...none, verdict: 'regression', missing: unchecked, newlyFailing: unchecked, note: `files that were checked no longer are: ${listForNote(unchecked)}; keep the code where the checker checks it` };
  }
  if (next.green) {
    return { ...none, verdict: 'green', fixed: best.failing, note: greenWords(next) };
  }

  const { grown, shrunk } = compareDiagnostics(best, next);
  if (best.loadError && !next.loadError) {
    if (grown.length) return { ...none, verdict: 'regression', newlyFailing: grown, note: `new type errors: ${grown.join('; ')}` };
    return { ...none, verdict: 'progress', fixed: ['(the test suite loads again)'], note: `the suite loads again; ${failingWords(nextWitness)}` };
  }

  const bestFailing = new Set(best.failing);
  const nextFailing = new Set(next.failing);
  const appeared = next.failing.filter((id) => !bestFailing.has(id) && !flaky.has(id));
  const passedBefore = passedIn(best);
  const newTests = appeared.filter(passedBefore);
  const newlyVisible = appeared.filter((id) => !passedBefore(id));
  const visible = newlyVisible.length ? `; newly visible (did not run before): ${listForNote(newlyVisible)}` : '';
  const newlyFailing = [...newTests, ...grown];
  if (newlyFailing.length) {
    return { ...none, verdict: 'regression', newTests, newlyFailing, newlyVisible, note: `broke ${listForNote(newlyFailing)}${visible}` };
  }
  if (opts.focus?.length) return judgeFocused(best, next, opts.focus, flaky, newlyVisible, visible);
  const fixedTests = best.failing.filter((id) => !nextFailing.has(id) && !flaky.has(id));
  const fixed = [...fixedTests, ...shrunk];
  if (fixed.length) return { ...none, verdict: 'progress', fixed, newlyVisible, note: `fixed ${listForNote(fixed)}${visible}` };
  return { ...none, verdict: 'no-progress', newlyVisible, note: `still ${failingWords(nextWitness)}, ${next.diagnostics.length} type errors${visible}` };
}

/**
 * A run with a focus, once nothing regressed (no test that passed broke or went missing, type errors not grown —
 * checked over the whole suite before this is called):
 * - green when every focused test ran and passed, the run did not time out, and whatever still fails was already
 *   failing in the best state (tests or type errors). The test command may then exit non-zero: those old failures
 *   explain it. A non-zero exit with nothing failing (the command itself failed) is not green.
 * - progress when the focused tests failing now are a strict subset of those failing in the best state;
 * - no progress otherwise, even if tests outside the focus were fixed (they are not what this run is for).
 */
function judgeFocused(best: WitnessSummary, next: WitnessSummary, focus: readonly string[], flaky: Set<string>, newlyVisible: string[], visible: string): Judgement {
  const none = { newTests: [], newlyFailing: [], missing: [], fewerRan: null };
  const inFocus = new Set(focus);
  const before = best.failing.filter((id) => inFocus.has(id) && !flaky.has(id));
  const now = next.failing.filter((id) => inFocus.has(id) && !flaky.has(id));
  const fixed = before.filter((id) => !now.includes(id));
  const others = next.failing.filter((id) => !inFocus.has(id));
  const oldFailuresExplainExit = others.length > 0 || next.diagnostics.length > 0;
  if (now.length === 0 && focus.every(ranIn(next)) && !next.timedOut && oldFailuresExplainExit) {
    const still = others.length ? `; still failing as before: ${listForNote(others)}` : '';
    return { ...none, verdict: 'green', fixed, newlyVisible, note: `the focused test${focus.length === 1 ? '' : 's'} pass${focus.length === 1 ? 'es' : ''} and nothing that passed broke${still}${visible}` };
  }
  if (fixed.length && now.every((id) => before.includes(id))) {
    return { ...none, verdict: 'progress', fixed, newlyVisible, note: `fixed ${listForNote(fixed)}; focused still failing: ${now.length ? listForNote(now) : '(none, but the run is not green yet)'}${visible}` };
  }
  const outside = best.failing.filter((id) => !inFocus.has(id) && !next.failing.includes(id));
  const aside = outside.length ? `; fixed ${listForNote(outside)} outside the focus, which does not count` : '';
  return { ...none, verdict: 'no-progress', fixed: [], newlyVisible, note: `the focused test${now.length === 1 ? '' : 's'} ${listForNote(now.length ? now : [...focus])} still fail${now.length === 1 ? 's' : ''}${aside}${visible}` };
}

/** Fewer failing tests + diagnostics is better; ties keep the earlier state (contract: "best state"). */
export function isBetter(candidate: WitnessSummary, best: WitnessSummary): boolean {
  if (candidate.loadError !== best.loadError) return !candidate.loadError;
  return judgedFailing(candidate).length + candidate.diagnostics.length < judgedFailing(best).length + best.diagnostics.length;
}

/** "27 failing", "27 failing, 106 test files did not load": as a person counts them, files apart. */
function failingWords(w: Pick<WitnessSummary, 'failing' | 'loadErrorFiles'>): string {
  const files = w.loadErrorFiles?.length ?? 0;
  return files ? `${w.failing.length} failing, ${notLoadedText(files)}` : `${w.failing.length} failing`;
}

export function listForNote(items: string[]): string {
  const shown = items.slice(0, 3).map((s) => `\`${s}\``).join(', ');
  return items.length > 3 ? `${shown} and ${items.length - 3} more` : shown;
}
