// What ran in a verified state, by name where the runner names its tests, else by count: the half of judging that
// tells a test that passed from one that went missing (deselected, deleted, skipped, hidden by an early exit).
import type { WitnessSummary } from '../../ports/runState';

/** Whether a test is known to have run in `w`: reported as executed, or the runner names only failures and ran to the end. */
export function ranIn(w: WitnessSummary): (id: string) => boolean {
  if (w.ran) return isExecutedIn(w);
  return () => !w.stoppedEarly && !w.loadError;
}

/**
 * Tests that executed (passed or failed) in `best` and are not executed in `next`, by ID where both runs name
 * their tests, else by count. A test deselected, deleted, skipped or hidden by an early exit is missing.
 */
export function whatWentMissing(best: WitnessSummary, next: WitnessSummary, flaky: Set<string>): { missing: string[]; fewerRan: [number, number] | null } {
  // An output that no longer names any test (the runner bypassed, its output swallowed): everything went missing.
  const nextSaysNothing = !next.ran && (next.executed === null || next.executed === undefined);
  if (nextSaysNothing && best.ran) return { missing: [...executedIds(best)].filter((id) => !flaky.has(id)).sort(), fewerRan: null };
  if (nextSaysNothing && typeof best.executed === 'number' && best.executed > 0) return { missing: [], fewerRan: [best.executed, 0] };
  if (best.ran && next.ran) {
    // The verifier hands back the same list when a run names the same tests: nothing to compare, for a million tests.
    if (best.ran === next.ran && sameSkipped(best, next)) return { missing: [], fewerRan: null };
    const bestSkipped = new Set(best.skipped ?? []);
    const missing = notExecutedIn(next.ran, next.skipped ?? [], best.ran).filter((id) => !bestSkipped.has(id) && !flaky.has(id));
    return { missing: missing.sort(), fewerRan: null };
  }
  const before = best.executed;
  const now = next.executed;
  if (typeof before === 'number' && typeof now === 'number' && now < before) return { missing: [], fewerRan: [before, now] };
  return { missing: [], fewerRan: null };
}

/**
 * Whether a test is known to have passed in `w`: by name where the runner names its tests; else every test not
 * failing passed — unless the runner stopped early, when the tests it never reached are unknown.
 */
export function passedIn(w: WitnessSummary): (id: string) => boolean {
  if (w.ran) return isExecutedIn(w);
  const complete = !w.stoppedEarly && !w.loadError;
  return () => complete;
}

function executedIds(w: WitnessSummary): Set<string> {
  const skipped = new Set(w.skipped ?? []);
  return new Set(skipped.size ? (w.ran ?? []).filter((id) => !skipped.has(id)) : w.ran);
}

/** Whether a test executed in `w`: its set of a million IDs is built on the first question, not for none. */
function isExecutedIn(w: WitnessSummary): (id: string) => boolean {
  let ran: Set<string> | null = null;
  return (id) => (ran ??= executedIds(w)).has(id);
}

/**
 * The IDs of `ids` that did not execute in a run (not in `ran`, or in `skipped`). Sorted lists (the verifier's) are
 * walked side by side: no set of a million IDs to find the one test that went missing.
 */
function notExecutedIn(ran: readonly string[], skipped: readonly string[], ids: readonly string[]): string[] {
  const skip = new Set(skipped);
  if (!isSorted(ran) || !isSorted(ids)) {
    const executed = new Set(ran);
    return ids.filter((id) => !executed.has(id) || skip.has(id));
  }
  const out: string[] = [];
  let j = 0;
  for (const id of ids) {
    while (j < ran.length && ran[j] < id) j++;
    if (j >= ran.length || ran[j] !== id || skip.has(id)) out.push(id);
  }
  return out;
}

function isSorted(list: readonly string[]): boolean {
  for (let i = 1; i < list.length; i++) if (list[i - 1] > list[i]) return false;
  return true;
}

function sameSkipped(a: WitnessSummary, b: WitnessSummary): boolean {
  return a.skipped === b.skipped || (!a.skipped?.length && !b.skipped?.length);
}
