// What ran in a verified state, by name where the runner names its tests, else by count: the half of judging that
// tells a test that passed from one that went missing (deselected, deleted, skipped, hidden by an early exit).
import type { WitnessSummary } from '../../ports/runState';

/** Whether a test is known to have run in `w`: reported as executed, or the runner names only failures and ran to the end. */
export function ranIn(w: WitnessSummary): (id: string) => boolean {
  if (w.ran) {
    const ran = executedIds(w);
    return (id) => ran.has(id);
  }
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
    const nowRan = executedIds(next);
    const missing = [...executedIds(best)].filter((id) => !nowRan.has(id) && !flaky.has(id));
    return { missing: [...missing].sort(), fewerRan: null };
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
  if (w.ran) {
    const ran = executedIds(w);
    return (id) => ran.has(id);
  }
  const complete = !w.stoppedEarly && !w.loadError;
  return () => complete;
}

function executedIds(w: WitnessSummary): Set<string> {
  const skipped = new Set(w.skipped ?? []);
  return new Set((w.ran ?? []).filter((id) => !skipped.has(id)));
}
