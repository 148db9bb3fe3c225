// Rolling back writes only what the loop itself wrote since the state it returns to: the files of the attempts
// after it, the attempt in flight, and what the test command writes. A file a person changed meanwhile is never
// overwritten or deleted; it is named instead, and the run stops so they can decide.
import type { SnapshotStore } from './ports';
import type { RunState } from './runState';

/** Paths the loop wrote since the state produced by `sinceIteration` (0: the baseline). */
export function loopWrites(state: RunState, sinceIteration: number): Set<string> {
  const owned = new Set<string>(state.artifacts);
  // Only attempts whose edit was applied wrote anything (a refused proposal names files it never touched).
  for (const it of state.iterations) if (it.n > sinceIteration && it.afterSnapshot !== null) for (const f of it.files) owned.add(f);
  for (const f of state.inFlight ?? []) owned.add(f);
  return owned;
}

/**
 * Returns the loop's own changes since `ref` to it and leaves every other change alone. Returns the paths left
 * alone (changed by someone else), for the caller to name and stop on.
 */
export async function rollBack(snapshots: SnapshotStore, state: RunState, ref: { snapshot: string; iteration?: number }): Promise<string[]> {
  const changed = await snapshots.changedSince(ref.snapshot);
  if (changed.length === 0) return [];
  const owned = loopWrites(state, ref.iteration ?? 0);
  const mine = changed.filter((p) => owned.has(p));
  if (mine.length) await snapshots.restorePaths(ref.snapshot, mine);
  return changed.filter((p) => !owned.has(p));
}

export function leftAloneSentence(paths: readonly string[]): string {
  const shown = `${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ` and ${paths.length - 3} more` : ''}`;
  return `Files changed outside the loop during the run (${shown}) were left as they are; the loop's own edits were rolled back and it stopped so nothing of yours is overwritten.`;
}
