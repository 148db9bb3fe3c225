// "Fix until green" in this window: starts a run (launch.ts assembles it), keeps the active and the newest run as
// LiveRuns, acts on saved runs, says how each run ended (endNotice.ts), and serves the views the runs they read.
import * as vscode from 'vscode';
import type { Grant } from '../../core/loop/engine';
import type { LoopEvent } from '../../core/loop/events';
import type { HistoryRecord } from '../../ports/history';
import type { Actor } from '../../ports/actor';
import type { TerminalVerifier } from '../testing/terminalVerifier';
import type { RunState } from '../../ports/runState';
import type { LoopConfig } from '../../shared/config';
import { newRunId } from '../../base/runId';
import type { ConfigReader } from '../config';
import { requireTrust, saveOrRefuse } from './editorGuards';
import type { RunFiles } from '../../store/runFiles';
import { pickFolder, prepareRun } from './runSetup';
import type { RunParts } from './runSetup';
import type { ExtraBudget, RunServiceApi } from './runServiceApi';
import type { RunView } from './runView';
import type { ChangedFile } from '../../shared/protocol';
import { countsText } from '../../shared/plainWords';
import { liveLine } from './liveLines';
import type { TestTerminalHost } from '../testing/testTerminal';
import { acceptRun, rollbackRun, validateExtra } from './savedRunActions';
import { spentWithoutGrant } from '../../core/loop/bounds/budget';
import { GuardRefusal } from './editorGuards';
import type { Redactor } from '../../base/redact';
import { runSecrets } from '../../base/secretEnv';
import { STOPPED_BEFORE_BASELINE } from '../../core/run/report';
import { redactingLog } from './redactingLog';
import type { RunLog } from './redactingLog';
import { LiveRun } from './liveRun';
import { RunHistory } from './runHistory';
import { startRun } from './launch';
import type { LaunchHost, LaunchOptions } from './launch';
import { endOfRunNotice, notStartedNotice, toastNotice } from './endNotice';
import type { EndNotice } from './endNotice';
import { showNotice } from './showNotice';

type Change = { kind: 'event'; event: LoopEvent; run: RunView } | { kind: 'history'; folder: vscode.Uri };

export class RunService implements RunServiceApi, LaunchHost {
  private readonly emitter = new vscode.EventEmitter<Change>();
  readonly onDidChange = this.emitter.event;
  private running: LiveRun | undefined;
  private newest: LiveRun | undefined;
  /** The newest run's redactor (its key, its test task's environment); before any run, the window's environment. */
  private redactor: Redactor = runSecrets({ env: process.env }).redactor;
  readonly log: RunLog;
  private readonly saved: RunHistory;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly config: ConfigReader,
    private readonly channel: vscode.LogOutputChannel,
    private readonly terminals: TestTerminalHost,
  ) {
    this.log = redactingLog(channel, () => this.redactor);
    this.saved = new RunHistory({
      stateDir: this.stateDir, config, log: this.log, redactor: () => this.redactor, running: () => this.running,
      warn: (message) => void this.notify(toastNotice('warning', message)),
    });
  }

  get active(): RunView | undefined {
    return this.running;
  }

  get latest(): RunView | undefined {
    return this.newest;
  }

  /** For the status bar: the active run, else the newest of this window. */
  current(): RunView | undefined {
    return this.running ?? this.newest;
  }

  /** Where this window keeps runs, histories and snapshots (also the check sessions of agents' tools). */
  get stateDir(): string {
    return (this.context.storageUri ?? this.context.globalStorageUri).fsPath;
  }

  files(folder: vscode.Uri): RunFiles {
    return this.saved.files(folder);
  }

  /**
   * `ignoreHistory`: the person chose "Run anyway" after the cross-run guard stopped a run like this one. Resolves to
   * the run's final state, or undefined when it did not start or ended on an error (both already said on a toast).
   */
  async start(folder?: vscode.Uri, opts: { ignoreHistory?: boolean; focus?: string[] } = {}): Promise<RunState | undefined> {
    if (this.running) {
      void vscode.window.showInformationMessage(`Greenloop is already running on ${this.running.folder.fsPath}; stop it first ("Greenloop: Stop").`);
      return undefined;
    }
    try {
      requireTrust();
      const { wf, parts } = await this.prepare(folder);
      const loop = opts.focus?.length ? { ...parts.loop, focus: opts.focus } : parts.loop;
      this.log.info(`Fix until green on ${parts.cwd}${loop.focus ? ` for ${loop.focus.length === 1 ? 'the test' : 'the tests'} ${loop.focus.join(', ')}` : ''}: verifier \`${parts.spec.command}\` (${parts.spec.source}), model ${parts.actor.label}, budgets ${parts.loop.maxIterations} attempts / ${parts.loop.maxTokens} tokens / ${parts.loop.maxMinutes} min`);
      const run = LiveRun.starting(wf.uri, newRunId(), Date.now(), loop, this.redactor);
      run.testSource = parts.spec.source;
      return await this.execute(run, loop, parts.actor, parts.verifier, { ignoreHistory: opts.ignoreHistory });
    } catch (err) {
      this.report(err);
      return undefined;
    }
  }

  /** Something outside a run wrote the folder's history (an agent's check session): the views read it again. */
  historyChanged(folder: vscode.Uri): void {
    this.emitter.fire({ kind: 'history', folder });
  }

  stop(): void {
    if (!this.running) {
      void vscode.window.showInformationMessage('No Greenloop run is active.');
      return;
    }
    this.log.info('Stop requested; the engine leaves the workspace per greenloop.onGiveUp.');
    this.running.gate.resume();
    this.running.controller.abort();
  }

  async rollback(folder: vscode.Uri, runId: string, to: 'best' | 'baseline'): Promise<void> {
    await this.guarded(async () => {
      const state = await rollbackRun(this.files(folder), await this.saved.viewer(folder), runId, to);
      if (!state) return;
      const now = countsText(state.current.witness.failing.length, state.current.witness.diagnostics.length, state.current.witness.loadErrorFiles?.length);
      this.afterChange(folder, state, `Rolled back to the ${to === 'best' ? 'best state' : 'baseline'} (${now}).`);
    });
  }

  async accept(folder: vscode.Uri, runId: string): Promise<void> {
    await this.guarded(async () => {
      const state = await acceptRun(this.files(folder), runId);
      this.afterChange(folder, state, 'Kept the workspace as it is now.');
    });
  }

  async retryWithHint(folder: vscode.Uri, runId: string, hint: string, extra: ExtraBudget): Promise<void> {
    await this.guarded(async () => {
      validateExtra(extra);
      const state = await this.files(folder).runs.load(runId);
      const grant: Grant = { hint, iterations: extra.iterations, tokens: extra.tokens, minutes: extra.minutes };
      const spent = spentWithoutGrant(state, grant, Date.now());
      if (spent) throw new GuardRefusal(`The run cannot go on: ${spent} in the retry's extra budget.`);
      const { wf, parts } = await this.prepare(folder);
      this.log.info(`Retrying the run with +${extra.iterations} attempts, +${extra.tokens} tokens, +${extra.minutes} min${hint ? ` and the hint "${hint}"` : ''}.`);
      const run = LiveRun.resuming(wf.uri, state, Date.now(), this.redactor);
      await this.execute(run, state.config, parts.actor, parts.verifier, { resume: { from: state, grant } });
    });
  }

  /** Folder → saved editors → settings → the run's parts; the new run's secrets mask everything said from here. */
  private async prepare(folder: vscode.Uri | undefined): Promise<{ wf: vscode.WorkspaceFolder; parts: RunParts }> {
    const wf = await pickFolder(this.context.workspaceState, folder);
    await saveOrRefuse(wf.uri);
    const settings = this.config.read(wf.uri);
    const parts = await prepareRun(wf, settings, this.context, () => this.terminals.acquire());
    this.redactor = parts.secrets.redactor;
    this.warnAll(parts.warnings);
    return { wf, parts };
  }

  history(folder: vscode.Uri): Promise<HistoryRecord[]> {
    return this.saved.records(folder);
  }

  async runsOf(folder: vscode.Uri): Promise<RunView[]> {
    // The live run is listed even before it has a record: a view that keeps this list reads `record` when it draws.
    const mine = [this.running, this.newest].find((r) => r && r.folder.toString() === folder.toString());
    const saved = (await this.saved.runs(folder)).filter((r) => r.runId !== mine?.runId);
    return mine ? [...saved, mine] : saved;
  }

  async run(folder: vscode.Uri, runId: string): Promise<RunView | undefined> {
    const live = [this.running, this.newest].find((r) => r?.record && r.runId === runId && r.folder.toString() === folder.toString());
    // A resumed run appends again under the same id; the last record is the newest.
    return live ?? (await this.saved.runs(folder)).filter((r) => r.runId === runId).pop();
  }

  async clearHistory(folder: vscode.Uri): Promise<void> {
    await this.saved.clear(folder);
    this.emitter.fire({ kind: 'history', folder });
  }

  readSnapshotFile(folder: vscode.Uri, snapshotId: string, relPath: string): Promise<Uint8Array | null> {
    return this.saved.readSnapshotFile(folder, snapshotId, relPath);
  }

  changedFiles(folder: vscode.Uri, baselineSnapshot: string, bestSnapshot: string): Promise<ChangedFile[]> {
    return this.saved.changedFiles(folder, baselineSnapshot, bestSnapshot);
  }

  folders(): readonly vscode.Uri[] {
    return this.saved.folders();
  }

  private async execute(
    run: LiveRun, config: LoopConfig, actor: Actor, verifier: TerminalVerifier, opts: LaunchOptions = {},
  ): Promise<RunState | undefined> {
    let state: RunState | undefined;
    try {
      state = await startRun(this, run, config, actor, verifier, opts);
    } finally {
      // A verifier serves one run: what it watches (the Problems view's files) ends with the run, however it ended.
      verifier.dispose();
    }
    if (state) await this.notify(endOfRunNotice(state, run.redactor.text(state.reasonText), run.testSource), run, state);
    this.emitter.fire({ kind: 'history', folder: run.folder });
    return state;
  }

  began(run: LiveRun): void {
    this.newest?.dispose();
    this.running = run;
    this.newest = run;
    void vscode.commands.executeCommand('setContext', 'greenloop.running', true);
    this.emitter.fire({ kind: 'history', folder: run.folder });
  }

  ended(): void {
    this.running = undefined;
    void vscode.commands.executeCommand('setContext', 'greenloop.running', false);
  }

  stoppedBeforeBaseline(): void {
    this.log.info(STOPPED_BEFORE_BASELINE);
    void this.notify(notStartedNotice(STOPPED_BEFORE_BASELINE, true));
  }

  onEvent(run: LiveRun, e: LoopEvent): void {
    run.fold(e, Date.now());
    const line = liveLine(e);
    if (line) {
      const text = run.redactor.text(line);
      if (e.type === 'warning' || e.type === 'escalated' || (e.type === 'verified' && (e.verdict === 'regression' || e.verdict === 'invalid-proposal'))) this.log.warn(text);
      else this.log.info(text);
      if (e.type === 'warning') void this.notify(toastNotice('warning', `Greenloop: ${run.redactor.text(e.message)}`));
    }
    this.emitter.fire({ kind: 'event', event: e, run });
  }

  pauseFor(run: LiveRun, file: string): void {
    run.gate.pause();
    run.paused();
    this.log.warn(`Paused: ${file} is being edited during the run.`);
    this.emitter.fire({ kind: 'history', folder: run.folder });
  }

  decide(run: LiveRun, file: string, decision: 'stop' | 'continue'): void {
    run.decided();
    if (decision === 'stop') {
      this.log.info(`Stopping: you chose to stop while editing ${file}.`);
      run.controller.abort();
    } else {
      this.log.info(`Continuing with your edit of ${file} included.`);
      run.editAccepted = true;
    }
    run.gate.resume();
    this.emitter.fire({ kind: 'history', folder: run.folder });
  }

  /** Acting on a saved run while the loop writes files would race with it. */
  private async guarded(action: () => Promise<void>): Promise<void> {
    if (this.running) {
      void vscode.window.showWarningMessage(`Greenloop is running on ${this.running.folder.fsPath}; stop it first ("Greenloop: Stop") and try again.`);
      return;
    }
    try {
      requireTrust();
      await action();
    } catch (err) {
      this.report(err);
    }
  }

  /**
   * A saved run changed (Roll back, Accept): the window's copy of it takes the new state, so the status bar, the
   * panel and the tree, which all read it, say the same thing.
   */
  private afterChange(folder: vscode.Uri, state: RunState, message: string): void {
    const run = this.newest;
    if (run && run.folder.toString() === folder.toString() && run.runId === state.runId) run.settle(state);
    this.log.info(message);
    void vscode.window.showInformationMessage(`Greenloop: ${message}`);
    this.emitter.fire({ kind: 'history', folder });
  }

  report(err: unknown): void {
    const message = this.redactor.text(err instanceof Error ? err.message : String(err));
    this.log.error(message);
    void this.notify(notStartedNotice(message, false));
  }

  /** Said before the run, like the engine's warnings: in the log and on a toast. */
  private warnAll(warnings: readonly string[]): void {
    for (const w of warnings) {
      this.log.warn(w);
      void this.notify(toastNotice('warning', `Greenloop: ${this.redactor.text(w)}`));
    }
  }

  /** `run`/`state`: the run the notice is about, for its buttons (Open run, Run anyway, Open the last run). */
  private notify(notice: EndNotice, run?: LiveRun, state?: RunState): Promise<void> {
    return showNotice(notice, {
      log: this.log,
      showOutput: () => this.channel.show(true),
      run,
      runAnyway: () => void this.start(run?.folder, { ignoreHistory: true, focus: state?.config.focus }),
      openLastRun: async () => {
        if (!run) return;
        const last = (await this.files(run.folder).list()).records.filter((r) => r.runId !== run.runId).pop()?.runId ?? run.runId;
        await vscode.commands.executeCommand('greenloop.openRunPanel', run.folder.toString(), last);
      },
    });
  }

  dispose(): void {
    this.running?.gate.resume();
    this.running?.controller.abort();
    this.newest?.dispose();
    this.emitter.dispose();
  }
}
