// Opens a folder for a loop run, in the order that keeps a person's work safe: take the folder's run journal (one
// run per folder, across the CLI and every VS Code window), open the snapshot store (a dead run's locks go), then
// finish what a killed run left in flight — before the new run reads or writes anything.
import { recoverInterrupted, type Recovered } from '../store/recovery';
import { RunJournal } from '../store/runJournal';
import { canonicalWorkspace, defaultStateDir, ensureUsableStateDir } from '../base/stateDir';
import { newRunId } from '../base/runId';
import { openSnapshotStore, type GitSnapshotStore, type SnapshotStoreOptions } from '../snapshot/gitSnapshotStore';
import { removeStaleCopies } from '../snapshot/workspaceCopies';

export interface OpenedWorkspace {
  snapshots: GitSnapshotStore;
  journal: RunJournal;
  /** What was recovered from a run that died here, in one sentence; null when the last run ended properly. */
  recovered: Recovered | null;
}

export async function openWorkspace(opts: SnapshotStoreOptions): Promise<OpenedWorkspace> {
  let workspace: string;
  try {
    workspace = canonicalWorkspace(opts.workspace);
  } catch {
    throw new Error(`The workspace folder ${opts.workspace} does not exist or is not a folder; open an existing folder and try again.`);
  }
  const stateDir = opts.stateDir ?? defaultStateDir();
  await ensureUsableStateDir(stateDir);
  const runId = opts.runId ?? newRunId();
  const { journal, interrupted } = await RunJournal.open(stateDir, workspace, runId);
  try {
    const snapshots = await openSnapshotStore({ ...opts, stateDir, runId, locksOwnerGone: interrupted !== null });
    // The folder is ours now: any copy of it still on disk is a killed run's (its agents' or its candidates').
    await removeStaleCopies(snapshots.storeDir);
    let recovered: Recovered | null = null;
    if (interrupted) {
      try {
        recovered = await recoverInterrupted(interrupted, snapshots, workspace);
      } catch (err) {
        throw new Error(`Finishing what an interrupted run left on this folder failed (${(err as Error).message}); fix that and start again, or delete ${journal.file} to skip the recovery.`);
      }
      await journal.claim();
    }
    return { snapshots, journal, recovered };
  } catch (err) {
    await journal.release();
    throw err;
  }
}
