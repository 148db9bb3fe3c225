// Rolling back writes only what the loop itself wrote since the state it returns to: the files of the attempts
// after it, the attempt in flight, and what the test command writes. A file a person changed meanwhile is never
// overwritten or deleted; it is named instead, and the run stops so they can decide. Every restore is announced in
// the run journal first, so a kill in the middle of one is finished by the next start.
import { blobIdOnDisk } from '../../../base/blobId';
import type { SnapshotStore } from '../../../ports/snapshots';
import { type WriteJournal } from '../../../ports/journal';
import { hiddenChanges } from '../../../base/hiddenChanges';
import type { RunState } from '../../../ports/runState';

export const NO_JOURNAL: WriteJournal = { intend: async () => undefined, settled: async () => undefined };

export interface WorkspaceWriter {
  cwd: string;
  snapshots: SnapshotStore;
  journal?: WriteJournal;
}

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
export async function rollBack(w: WorkspaceWriter, state: RunState, ref: { snapshot: string; iteration?: number }): Promise<string[]> {
  const changed = await w.snapshots.changedSince(ref.snapshot);
  const owned = loopWrites(state, ref.iteration ?? 0);
  const mine = changed.filter((p) => owned.has(p));
  const seen = new Set(changed);
  mine.push(...(await hiddenChanges(w, ref.snapshot, [...owned].filter((p) => !seen.has(p)))));
  await journaledRestore(w, state, ref.snapshot, mine);
  return changed.filter((p) => !owned.has(p));
}

/** Restores these paths to a snapshot, each one announced (blob before and after) in the journal first. */
export async function journaledRestore(w: WorkspaceWriter, state: RunState, snapshot: string, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  const journal = w.journal ?? NO_JOURNAL;
  await w.snapshots.restorePaths(snapshot, paths, async (plan) => {
    const entries = [];
    // In batches: thousands of files read at once could run out of file descriptors.
    for (let i = 0; i < plan.length; i += 64) {
      entries.push(...(await Promise.all(plan.slice(i, i + 64).map(async (p) => ({ path: p.path, before: await blobIdOnDisk(w.cwd, p.path), after: p.blob })))));
    }
    await journal.intend({ kind: 'restore', attempt: state.iterations.length + 1, returnTo: snapshot, paths: entries, artifacts: state.artifacts });
  });
}

/** Everything back to a snapshot (an agent's whole attempt, which may have touched any file); returns the paths. */
export async function restoreIfChanged(w: WorkspaceWriter, state: RunState, snapshot: string): Promise<string[]> {
  const changed = await w.snapshots.changedSince(snapshot);
  await journaledRestore(w, state, snapshot, changed);
  return changed;
}

export function leftAloneSentence(paths: readonly string[]): string {
  const shown = `${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ` and ${paths.length - 3} more` : ''}`;
  return `Files changed outside the loop during the run (${shown}) were left as they are; the loop's own edits were rolled back and it stopped so nothing of yours is overwritten.`;
}
