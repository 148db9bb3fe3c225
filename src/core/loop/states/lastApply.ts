// What the last applied edit overwrote, kept in memory until the next one. Snapshots are the way back; this is the
// way back when the snapshot store itself is gone (the state folder deleted while the tests ran): a regressing edit
// can still be undone, file by file, and only where the file still holds exactly what the edit wrote.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { blobId, blobIdOnDisk } from '../../../base/blobId';
import { tempSiblingFor } from '../../../base/tempSibling';

interface Overwritten {
  rel: string;
  /** Its bytes before the edit; null when the edit created it. */
  before: Buffer | null;
  /** Git blob id of what the edit wrote. */
  after: string;
}

export interface UndoResult {
  /** Paths put back as they were before the edit. */
  restored: string[];
  /** Paths changed again since the edit (by a person): left as they are. */
  leftAlone: string[];
}

export class LastApplyMemory {
  private last: { returnTo: string; files: Overwritten[] } | null = null;

  /** Called just before an edit writes: `returnTo` is the snapshot the workspace was in. */
  remember(returnTo: string, writes: ReadonlyArray<{ rel: string; before: Buffer | null; after: string | Buffer }>): void {
    this.last = { returnTo, files: writes.map((w) => ({ rel: w.rel, before: w.before, after: blobId(w.after) })) };
  }

  forget(): void {
    this.last = null;
  }

  /** True when the last edit started from this snapshot: undoing it returns there. */
  reaches(snapshot: string): boolean {
    return this.last?.returnTo === snapshot;
  }

  /** Undoes the last edit in `cwd`, never over a file changed since it was written. */
  async undo(cwd: string): Promise<UndoResult> {
    const result: UndoResult = { restored: [], leftAlone: [] };
    for (const f of this.last?.files ?? []) {
      const now = await blobIdOnDisk(cwd, f.rel);
      const wasBefore = f.before === null ? now === null : now === blobId(f.before);
      if (wasBefore) continue; // never written (the edit stopped early) or already put back
      if (now !== f.after) {
        result.leftAlone.push(f.rel);
        continue;
      }
      const abs = path.join(cwd, f.rel);
      if (f.before === null) {
        await fsp.rm(abs, { force: true });
      } else {
        const tmp = tempSiblingFor(abs);
        const mode = (await fsp.stat(abs)).mode;
        await fsp.writeFile(tmp, f.before, { mode });
        await fsp.rename(tmp, abs);
      }
      result.restored.push(f.rel);
    }
    this.last = null;
    return result;
  }
}
