// The one run model the views read, whether the run is going on in this window (LiveRun) or was read back from its
// history (SavedRun), as VS Code's testing views read one ITestResult for a live or a hydrated test run.
import type * as vscode from 'vscode';
import type { Redactor } from '../../base/redact';
import type { HistoryRecord } from '../../ports/history';
import type { IterationRecord, RunState } from '../../ports/runState';
import type { RunTally } from './runTally';

export interface RunView {
  readonly folder: vscode.Uri;
  readonly runId: string;
  /** The status bar's figures: counts against budgets, phase, outcome, paused, where the workspace is. */
  readonly tally: Readonly<RunTally>;
  /** The run as Loop history and the panel show it, redacted; undefined until the run has started. */
  readonly record: HistoryRecord | undefined;
  /** The whole state, live or read from disk (the Testing view); undefined until the run has started. */
  state(): Promise<RunState | undefined>;
  /** One attempt, agent transcript included, redacted. */
  iteration(n: number): Promise<IterationRecord | undefined>;
  /** The run's redactor: what a view shows of the run passes it. */
  readonly redactor: Redactor;
  /** Fires when what the run says changed (an engine event, a pause, Roll back / Accept). */
  readonly onDidChange: vscode.Event<RunView>;
}
