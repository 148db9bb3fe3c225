// Before the loop writes a byte of the workspace it says so on disk: which run and attempt, the snapshot a crash
// must return to, and each path with its blob id before and after. A run killed at any moment leaves the record
// behind; the next start reads it (see recovery.ts) and puts back exactly what the loop was writing, and nothing else.
// The record is also the folder's run lock: while its owner runs, no second run may start on the same folder.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { currentProcess, isStillRunning, processIsAlive, type ProcessIdentity } from '../base/processLiveness';
import { workspaceKey } from '../base/stateDir';
import { StateDirLost } from '../ports/snapshots';
import type { WriteIntent, WriteJournal } from '../ports/journal';

export interface JournalRecord {
  version: 1;
  runId: string;
  workspace: string;
  owner: ProcessIdentity;
  startedAt: string;
  intent: WriteIntent | null;
  /** The loop's edits beyond the best state, kept since the last attempt: recovered after `intent`. */
  kept?: WriteIntent | null;
}

export class FolderBusyError extends Error {
  constructor(readonly record: JournalRecord, file: string) {
    const who = `process ${record.owner.pid}${record.owner.host ? ` on ${record.owner.host}` : ''}`;
    super(`Greenloop is already running on this folder (run ${record.runId}, ${who}); stop it first, or delete ${file} if no run is going on.`);
    this.name = 'FolderBusyError';
  }
}

export function journalFileFor(stateDir: string, canonicalWorkspace: string): string {
  return path.join(path.resolve(stateDir), 'journal', `${workspaceKey(canonicalWorkspace)}.json`);
}

export class RunJournal implements WriteJournal {
  private record: JournalRecord;
  private claimed = false;
  private writes: Promise<void> = Promise.resolve();

  private constructor(readonly file: string, runId: string, workspace: string) {
    this.record = { version: 1, runId, workspace, owner: currentProcess(), startedAt: new Date().toISOString(), intent: null };
  }

  /**
   * Opens the folder's journal for a new run. Returns the record a dead run left behind (to recover from before
   * anything else happens), or null. Throws FolderBusyError while another live run holds the folder.
   * The earlier record stays on disk until `claim`, so a crash during recovery is recovered again next time.
   */
  static async open(stateDir: string, canonicalWorkspace: string, runId: string): Promise<{ journal: RunJournal; interrupted: JournalRecord | 'unreadable' | null }> {
    const file = journalFileFor(stateDir, canonicalWorkspace);
    const journal = new RunJournal(file, runId, canonicalWorkspace);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    await removeDeadTemps(path.dirname(file));
    for (let tries = 0; ; tries++) {
      const tmp = await journal.writeTemp();
      try {
        // link() creates the name only if it does not exist: two starts at once cannot both take a free folder.
        await fsp.link(tmp, file);
        journal.claimed = true;
        return { journal, interrupted: null };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new Error(`Greenloop could not write its run journal ${file} (${(err as Error).message}); check that the state folder is writable.`);
      } finally {
        await fsp.rm(tmp, { force: true });
      }
      const earlier = await readRecord(file);
      if (earlier === 'gone' && tries < 3) continue; // its run ended just now: the folder is free
      if (earlier !== 'unreadable' && earlier !== 'gone' && isStillRunning(earlier.owner)) throw new FolderBusyError(earlier, file);
      return { journal, interrupted: earlier === 'gone' ? null : earlier };
    }
  }

  /** Takes the folder over from a dead run, after its record was recovered. */
  async claim(): Promise<void> {
    await this.write();
    this.claimed = true;
  }

  intend(intent: WriteIntent): Promise<void> {
    this.record = { ...this.record, intent };
    return this.write();
  }

  betweenAttempts(kept: WriteIntent | null): Promise<void> {
    if (this.record.intent === null && (this.record.kept ?? null) === kept) return this.writes;
    this.record = { ...this.record, intent: null, kept };
    return this.write();
  }

  settled(): Promise<void> {
    if (this.record.intent === null) return this.writes;
    this.record = { ...this.record, intent: null };
    return this.write();
  }

  /** The run is over: the folder is free again. */
  async release(): Promise<void> {
    await this.writes.catch(() => undefined);
    if (this.claimed) await fsp.rm(this.file, { force: true });
    this.claimed = false;
  }

  private async writeTemp(): Promise<string> {
    const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    await fsp.writeFile(tmp, JSON.stringify(this.record));
    return tmp;
  }

  /** Temp file plus rename: a kill leaves the old record or the new one, never half of one. Writes go in order. */
  private write(): Promise<void> {
    const next = this.writes.then(async () => {
      try {
        const tmp = await this.writeTemp();
        await fsp.rename(tmp, this.file);
      } catch (err) {
        // The journal's folder went away under a live run: the state folder was deleted, not a disk error.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new StateDirLost(path.dirname(path.dirname(this.file)));
        throw err;
      }
    });
    this.writes = next.catch(() => undefined);
    return next;
  }
}

/** Journal temp files of processes that died between writing and renaming them. */
async function removeDeadTemps(dir: string): Promise<void> {
  for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
    const m = /\.(\d+)\.\d+\.tmp$/.exec(name);
    if (m && !processIsAlive(Number(m[1]))) await fsp.rm(path.join(dir, name), { force: true });
  }
}

async function readRecord(file: string): Promise<JournalRecord | 'unreadable' | 'gone'> {
  try {
    const rec = JSON.parse(await fsp.readFile(file, 'utf8')) as JournalRecord;
    if (rec?.version !== 1 || typeof rec.owner?.pid !== 'number' || typeof rec.runId !== 'string') return 'unreadable';
    return rec;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'unreadable';
  }
}
