// Files a rollback or a crash recovery must compare by content because git no longer sees them. Used by the loop's
// rollback and by the store's recovery; the snapshot store is typed by the two calls it needs (ports/snapshots.ts's
// SnapshotStore has both), so base/ imports no port.
import { blobId, blobIdOnDisk } from './blobId';

/** What hiddenChanges reads of a snapshot store. */
export interface SnapshotsReader {
  unrecorded(paths: string[]): Promise<string[]>;
  readFile(id: string, relPath: string): Promise<Buffer | null>;
}

/**
 * Among paths the loop wrote, those git does not see now (ignore rules that changed since hide them) and whose
 * content differs from the snapshot: a comparison of blobs, whatever the ignore rules say, so none is left behind.
 */
export async function hiddenChanges(w: { cwd: string; snapshots: SnapshotsReader }, snapshot: string, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const out: string[] = [];
  for (const p of await w.snapshots.unrecorded([...paths])) {
    const was = await w.snapshots.readFile(snapshot, p);
    if ((await blobIdOnDisk(w.cwd, p)) !== (was === null ? null : blobId(was))) out.push(p);
  }
  return out;
}
