// A run read back from its folder's history: the history line answers at once, the whole saved state is read from
// disk only when asked (the Testing view, a transcript), once. Views read it as they read a live run.
import type * as vscode from 'vscode';
import type { Redactor } from '../../base/redact';
import type { HistoryRecord } from '../../ports/history';
import type { IterationRecord, RunState } from '../../ports/runState';
import { tallyOfRecord } from './runTally';
import type { RunTally } from './runTally';
import type { RunView } from './runView';

/** A saved run does not change on its own: its change event never fires. */
const never: vscode.Event<RunView> = () => ({ dispose: () => undefined });

export class SavedRun implements RunView {
  readonly tally: Readonly<RunTally>;
  readonly onDidChange = never;
  private loaded: Promise<RunState | undefined> | undefined;

  /** `record` is already redacted; `load` reads the saved state (it may be gone: cleared, or never saved). */
  constructor(readonly folder: vscode.Uri, readonly record: HistoryRecord, readonly redactor: Redactor, private readonly load: () => Promise<RunState>) {
    this.tally = tallyOfRecord(record);
  }

  get runId(): string {
    return this.record.runId;
  }

  state(): Promise<RunState | undefined> {
    this.loaded ??= this.load().then((s) => this.redactor.json(s), () => undefined);
    return this.loaded;
  }

  async iteration(n: number): Promise<IterationRecord | undefined> {
    return (await this.state())?.iterations.find((it) => it.n === n);
  }
}
