// What this window reads and changes of the runs saved on disk: each folder's history (as SavedRuns), the run files,
// and the snapshot stores the diffs and Clear history read, opened once per folder for reading.
import * as vscode from 'vscode';
import type { Redactor } from '../../base/redact';
import type { HistoryRecord } from '../../ports/history';
import type { GitSnapshotStore } from '../../snapshot/gitSnapshotStore';
import type { ChangedFile } from '../../shared/protocol';
import { RunFiles } from '../../store/runFiles';
import type { ConfigReader } from '../config';
import { runtime } from '../loadRuntime';
import { realpath } from './launch';
import type { LiveRun } from './liveRun';
import type { RunLog } from './redactingLog';
import { SavedRun } from './savedRun';

export interface RunHistoryHost {
  readonly stateDir: string;
  readonly config: ConfigReader;
  readonly log: RunLog;
  /** The newest run's redactor: records written before its secrets were known are masked with it too. */
  redactor(): Redactor;
  /** The run going on now, if any: its store serves its folder, its files are never deleted. */
  running(): LiveRun | undefined;
  /** A history line that could not be read: said on a toast. */
  warn(message: string): void;
}

export class RunHistory {
  private readonly viewers = new Map<string, Promise<GitSnapshotStore>>();

  constructor(private readonly host: RunHistoryHost) {}

  files(folder: vscode.Uri): RunFiles {
    return new RunFiles(this.host.stateDir, realpath(folder.fsPath), this.host.redactor());
  }

  /** Redacted again on the way out. */
  async records(folder: vscode.Uri): Promise<HistoryRecord[]> {
    const { records, warnings } = await this.files(folder).list();
    for (const w of warnings) {
      this.host.log.warn(w);
      this.host.warn(this.host.redactor().text(w));
    }
    return this.host.redactor().json(records);
  }

  /** Every run of the folder's history, oldest first (a resumed run appends again under the same id). */
  async runs(folder: vscode.Uri): Promise<SavedRun[]> {
    return (await this.records(folder)).map((r) => this.saved(folder, r));
  }

  private saved(folder: vscode.Uri, record: HistoryRecord): SavedRun {
    return new SavedRun(folder, record, this.host.redactor(), () => this.files(folder).runs.load(record.runId));
  }

  async clear(folder: vscode.Uri): Promise<void> {
    const files = this.files(folder);
    const { records } = await files.list();
    const store = await this.viewer(folder);
    for (const r of records) {
      if (r.runId === this.host.running()?.runId) continue;
      await files.runs.delete(r.runId);
      await store.deleteRun(r.runId).catch((err: Error) => this.host.log.warn(`Could not delete the snapshots of run ${r.runId}: ${err.message}`));
    }
    await files.history.clear();
    this.host.log.info(`Cleared the run history of ${folder.fsPath}.`);
  }

  async readSnapshotFile(folder: vscode.Uri, snapshotId: string, relPath: string): Promise<Uint8Array | null> {
    return (await this.viewer(folder)).readFile(snapshotId, relPath);
  }

  async changedFiles(folder: vscode.Uri, baselineSnapshot: string, bestSnapshot: string): Promise<ChangedFile[]> {
    const store = await this.viewer(folder);
    const toBest = new Set(baselineSnapshot === bestSnapshot ? [] : await store.changedBetween(baselineSnapshot, bestSnapshot));
    const sinceBest = new Set(await store.changedSince(bestSnapshot));
    return [...new Set([...toBest, ...sinceBest])].sort().map((p) => ({ path: p, baselineToBest: toBest.has(p), bestToNow: sinceBest.has(p) }));
  }

  /** The window's folders with a history, and the one a run is going on in. */
  folders(): readonly vscode.Uri[] {
    const all = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri);
    return all.filter((u) => u.toString() === this.host.running()?.folder.toString() || RunFiles.hasHistory(this.host.stateDir, realpath(u.fsPath)));
  }

  /** The active run's store when it is on this folder; else one opened for reading. */
  viewer(folder: vscode.Uri): Promise<GitSnapshotStore> {
    const running = this.host.running();
    if (running?.snapshots && running.folder.toString() === folder.toString()) return Promise.resolve(running.snapshots);
    const key = folder.toString();
    let store = this.viewers.get(key);
    if (!store) {
      const excludes = this.host.config.read(folder).loop.snapshotExcludes;
      store = runtime().openSnapshotStore({ workspace: realpath(folder.fsPath), stateDir: this.host.stateDir, excludes, runId: 'view', onWarning: (m) => this.host.log.warn(m) });
      store.catch(() => this.viewers.delete(key));
      this.viewers.set(key, store);
    }
    return store;
  }
}
