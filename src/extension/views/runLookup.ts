// Finds a run by folder and id: the live state when this window is running or just ran it, else the history.
import * as path from 'path';
import * as vscode from 'vscode';
import { toHistoryRecord } from '../../core/run/historyRecord';
import type { HistoryRecord } from '../../ports/history';
import type { RunServiceApi, RunView } from '../run/runServiceApi';

export function sameFolder(a: vscode.Uri, b: vscode.Uri): boolean {
  return a.toString() === b.toString();
}

export function liveRecord(run: RunView | undefined, folder: vscode.Uri, runId?: string): HistoryRecord | undefined {
  if (!run?.state || !sameFolder(run.folder, folder)) return undefined;
  if (runId !== undefined && run.runId !== runId) return undefined;
  return run.redactor.json(toHistoryRecord(run.state));
}

export async function findRunRecord(runs: RunServiceApi, folder: vscode.Uri, runId: string): Promise<HistoryRecord | undefined> {
  const live = liveRecord(runs.active, folder, runId) ?? liveRecord(runs.latest, folder, runId);
  if (live) return live;
  const records = await runs.history(folder);
  // A resumed run appends again under the same id; the last record is the newest.
  for (let i = records.length - 1; i >= 0; i--) if (records[i].runId === runId) return records[i];
  return undefined;
}

export function folderName(folder: vscode.Uri): string {
  return vscode.workspace.getWorkspaceFolder(folder)?.name ?? path.basename(folder.fsPath);
}

/** Command arguments arrive untyped (palette, tree, status bar, tests); a folder may be a Uri or its string. */
export function folderArg(value: unknown): vscode.Uri | undefined {
  if (value instanceof vscode.Uri) return value;
  if (typeof value === 'string' && value) {
    try {
      return vscode.Uri.parse(value, true);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
