// Several reported tests under one ID are one test to the loop: it fails while any of them fails, so fixing some is no
// progress. A run that reports them so is said in a warning, never merged in silence. Runners do it with two tests of
// one title (or one test reported twice); the normalization does it with titles that differ only in a duration, a
// port or a temp path.
import type { ParsedOutput } from '../runners/parseOutput';

/** The warning for IDs several reported tests share, or null when every reported test has an ID of its own. */
export function sharedIdsWarning(parsed: ParsedOutput, idOf: (id: string) => string): string | null {
  const reported = new Map((parsed.sharedIds ?? []).map((s) => [s.id, s.times]));
  const timesOf = (raw: string): number => reported.get(raw) ?? 1;
  const shared = new Map<string, number>();
  for (const [raw, times] of reported) shared.set(idOf(raw), times);
  // Only an ID the normalization changed can land on another: those are few, and only they are counted.
  const list = parsed.tests ?? parsed.failing;
  const changed = new Map<string, number>();
  for (const t of list) {
    const id = idOf(t.id);
    if (id !== t.id) changed.set(id, (changed.get(id) ?? 0) + timesOf(t.id));
  }
  if (changed.size) {
    for (const t of list) if (changed.has(t.id) && idOf(t.id) === t.id) changed.set(t.id, changed.get(t.id)! + timesOf(t.id));
  }
  for (const [id, times] of changed) if (times > 1) shared.set(id, times);
  if (shared.size === 0) return null;
  const entries = [...shared].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const shown = entries.slice(0, 3).map(([id, times]) => `\`${id}\` (${times} reports)`).join(', ');
  const more = entries.length > 3 ? ` and ${entries.length - 3} more` : '';
  return `The test output gives one ID to several reported tests: ${shown}${more}. Greenloop tells tests apart by ID, so each counts as one test that fails while any of its reports fails; give the tests titles of their own.`;
}
