// The seam between the run machinery (runService.ts) and the views (history tree, escalation panel, status bar).
// Views read and act only through this interface, so each side can be built and tested on its own.
import type * as vscode from 'vscode';
import type { LoopEvent } from '../../core/loop/events';
import type { RunState } from '../../ports/runState';
import type { RunView } from './runView';
import type { HistoryRecord } from '../../ports/history';
import type { ChangedFile } from '../../shared/protocol';

export interface ExtraBudget {
  iterations: number;
  tokens: number;
  minutes: number;
}

export type { RunView } from './runView';

export interface RunServiceApi extends vscode.Disposable {
  /** Fires on every engine event and whenever history changes. */
  readonly onDidChange: vscode.Event<{ kind: 'event'; event: LoopEvent; run: RunView } | { kind: 'history'; folder: vscode.Uri }>;
  readonly active: RunView | undefined;
  /** The newest run of this window (active or finished), e.g. for "Open last escalation". */
  readonly latest: RunView | undefined;
  /** A run by id: this window's live or newest run, else the newest history line of that id (undefined if none). */
  run(folder: vscode.Uri, runId: string): Promise<RunView | undefined>;
  /** The folder's runs as Loop history lists them (oldest first), this window's live or newest run in its own place. */
  runsOf(folder: vscode.Uri): Promise<RunView[]>;

  /**
   * Fix until green on a folder (asks which one in a multi-root workspace when omitted); `focus`: the failing test
   * IDs the loop is for (LoopConfig.focus), the whole suite when absent or empty.
   */
  start(folder?: vscode.Uri, opts?: { focus?: string[] }): Promise<RunState | undefined>;
  /** Ends the active run cleanly through the engine (workspace left per greenloop.onGiveUp). */
  stop(): void;
  rollback(folder: vscode.Uri, runId: string, to: 'best' | 'baseline'): Promise<void>;
  accept(folder: vscode.Uri, runId: string): Promise<void>;
  retryWithHint(folder: vscode.Uri, runId: string, hint: string, extra: ExtraBudget): Promise<void>;

  /** Redacted again on the way out: records written before this run's secrets were known are masked too. */
  history(folder: vscode.Uri): Promise<HistoryRecord[]>;
  clearHistory(folder: vscode.Uri): Promise<void>;
  /** A snapshot's file content, for diff editors (null when the file did not exist then). */
  readSnapshotFile(folder: vscode.Uri, snapshotId: string, relPath: string): Promise<Uint8Array | null>;
  /** Files that differ between the baseline and the best state, or between the best state and the workspace now. */
  changedFiles(folder: vscode.Uri, baselineSnapshot: string, bestSnapshot: string): Promise<ChangedFile[]>;
  /** Folders that have history (for the tree's roots in a multi-root workspace). */
  folders(): readonly vscode.Uri[];
}
