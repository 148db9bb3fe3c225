// A run going on in this window: it folds the engine's events into its tally and keeps the state the engine last
// shared. The only writer of a live run's figures, so the status bar, the tree, the panel and the Testing view,
// which all read it through RunView, say the same thing.
import * as vscode from 'vscode';
import { toHistoryRecord } from '../../core/run/historyRecord';
import type { LoopEvent } from '../../core/loop/events';
import type { Redactor } from '../../base/redact';
import type { HistoryRecord } from '../../ports/history';
import type { IterationRecord, RunState } from '../../ports/runState';
import type { GitSnapshotStore } from '../../snapshot/gitSnapshotStore';
import { STOPPED_BEFORE_BASELINE } from '../../core/run/report';
import { PauseGate } from './pauseGate';
import { foldEvent, newTally, settleTally } from './runTally';
import type { RunTally } from './runTally';
import type { RunView } from './runView';

export class LiveRun implements RunView, vscode.Disposable {
  private current: RunState | undefined;
  private readonly changed = new vscode.EventEmitter<RunView>();
  readonly onDidChange = this.changed.event;
  readonly controller = new AbortController();
  readonly gate = new PauseGate();
  /** The person chose "Continue with my edit": the engine's user-edit stop is resumed automatically. */
  editAccepted = false;
  snapshots: GitSnapshotStore | undefined;
  /** Where the test command came from (`task "test"`, a setting…): which button a setup problem gets. */
  testSource: string | undefined;

  private constructor(readonly folder: vscode.Uri, readonly runId: string, private readonly figures: RunTally, readonly redactor: Redactor) {}

  static starting(folder: vscode.Uri, runId: string, now: number, limits: { maxIterations: number; maxTokens: number; maxMinutes: number }, redactor: Redactor): LiveRun {
    return new LiveRun(folder, runId, newTally(now, limits), redactor);
  }

  /** A saved run going on (Retry with hint): its figures start where the earlier sessions left them. */
  static resuming(folder: vscode.Uri, from: RunState, now: number, redactor: Redactor): LiveRun {
    const tally = newTally(now, from.limits);
    tally.elapsedBeforeMs = from.elapsedBeforeMs + ((from.finishedAt ?? now) - from.startedAt);
    tally.tokens = from.tokens.prompt + from.tokens.completion;
    tally.iteration = from.iterations.length;
    // A run that never measured its start gets its first count when it resumes (run-started), not a 0 now.
    const start = from.baseline.witness.unmeasured ? [] : [from.baseline.witness.failing.length + from.baseline.witness.diagnostics.length];
    tally.trend = [...start, ...from.iterations.map((i) => i.failing.length + i.diagnostics)];
    const run = new LiveRun(folder, from.runId, tally, redactor);
    run.current = from;
    return run;
  }

  get tally(): Readonly<RunTally> {
    return this.figures;
  }

  get record(): HistoryRecord | undefined {
    return this.current && this.redactor.json(toHistoryRecord(this.current));
  }

  /** The state without waiting: a live run holds it in memory. */
  get stateNow(): RunState | undefined {
    return this.current;
  }

  state(): Promise<RunState | undefined> {
    return Promise.resolve(this.current);
  }

  iteration(n: number): Promise<IterationRecord | undefined> {
    const it = this.current?.iterations.find((i) => i.n === n);
    return Promise.resolve(it && this.redactor.json(it));
  }

  fold(e: LoopEvent, now: number): void {
    foldEvent(this.figures, e, now);
    // The status bar's tooltip shows it: an agent's failure quotes its output.
    this.figures.reasonText = this.redactor.text(this.figures.reasonText);
    if (e.type === 'run-started' || e.type === 'finished') this.current = e.state;
    this.changed.fire(this);
  }

  paused(): void {
    this.figures.paused = true;
    this.changed.fire(this);
  }

  decided(): void {
    this.figures.paused = false;
    this.changed.fire(this);
  }

  /** The loop threw: an internal error, or the person stopped it before the baseline gave anything to keep. */
  failed(message: string, cancelled: boolean, now = Date.now()): void {
    const t = this.figures;
    t.outcome = cancelled ? 'cancelled' : 'error';
    t.phase = 'done';
    t.finishedAt = now;
    t.reasonText = cancelled ? STOPPED_BEFORE_BASELINE : this.redactor.text(message);
    this.changed.fire(this);
  }

  /** The run's final state as the engine returned it. */
  finishedWith(state: RunState): void {
    this.current = state;
    this.changed.fire(this);
  }

  /** A saved run changed (Roll back, Accept): the window's copy takes the new state and its figures. */
  settle(state: RunState): void {
    this.current = state;
    settleTally(this.figures, state);
    this.changed.fire(this);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
