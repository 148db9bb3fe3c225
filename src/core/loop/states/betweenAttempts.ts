// Between attempts the workspace may hold the loop's edits beyond the best state: an attempt judged by the failing
// tests alone (a regression it hides is found only by a later whole-suite run) or one that changed nothing measurable.
// A run that ends puts the best state back; a run killed there must not hand those edits to the person as theirs. So
// the journal keeps saying which files go back to the best state, through the next attempt's own intents, until the
// workspace is there again; the next start finishes both (store/recovery.ts) — a file changed since is someone's.
import { blobIdOnDisk } from '../../../base/blobId';
import type { RunState } from '../../../ports/runState';
import { loopWrites, type WorkspaceWriter } from './rollback';

export async function journalBetweenAttempts(w: WorkspaceWriter, state: RunState): Promise<void> {
  const journal = w.journal;
  if (!journal) return;
  if (!journal.betweenAttempts) return journal.settled();
  if (state.current.snapshot === state.best.snapshot) return journal.betweenAttempts(null);
  const owned = loopWrites(state, state.best.iteration);
  const mine = (await w.snapshots.changedSince(state.best.snapshot)).filter((p) => owned.has(p));
  if (!mine.length) return journal.betweenAttempts(null);
  const paths = [];
  // In batches: thousands of files read at once could run out of file descriptors.
  for (let i = 0; i < mine.length; i += 64) {
    paths.push(...(await Promise.all(mine.slice(i, i + 64).map(async (p) => {
      const now = await blobIdOnDisk(w.cwd, p);
      return { path: p, before: now, after: now };
    }))));
  }
  await journal.betweenAttempts({ kind: 'kept', attempt: state.iterations.length, returnTo: state.best.snapshot, paths, artifacts: state.artifacts });
}
