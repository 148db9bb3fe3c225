// Runs the loop inside VS Code: one engine per run from a copy of the settings read at start, progress with
// Cancel, a watched terminal, persisted state and history, and the escalation panel when the loop gives up.
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { Grant } from '../../core/loop/engine';
import type { LoopEvent } from '../../core/loop/events';
import type { HistoryRecord } from '../../ports/history';
import type { Actor } from '../../ports/actor';
import type { TerminalVerifier } from '../testing/terminalVerifier';
import { testRunLabel } from '../testing/testRunLabel';
import type { IterationRecord, RunState } from '../../ports/runState';
import type { FixRun } from '../../session/runFix';
import type { GitSnapshotStore } from '../../snapshot/gitSnapshotStore';
import type { LoopConfig } from '../../shared/config';
import { newRunId } from '../../base/runId';
import type { ConfigReader } from '../config';
import { requireTrust, saveOrRefuse, watchTyping } from './editorGuards';
import { gatedActor, gatedVerifier, PauseGate } from './pauseGate';
import { RunFiles } from '../../store/runFiles';
import { pickFolder, prepareRun } from './runSetup';
import type { ExtraBudget, RunServiceApi, RunView } from './runServiceApi';
import type { ChangedFile } from '../../shared/protocol';
import { foldEvent, newTally, settleTally } from './runTally';
import { countsText, workspaceAtText } from '../../shared/plainWords';
import { liveLine } from './liveLines';
import { toastText } from './toastText';
import type { RunTally } from './runTally';
import type { TestTerminalHost } from '../testing/testTerminal';
import { acceptRun, rollbackRun, validateExtra } from './savedRunActions';
import { spentWithoutGrant } from '../../core/loop/bounds/budget';
import { GuardRefusal } from './editorGuards';
import type { Redactor } from '../../base/redact';
import { runSecrets } from '../../base/secretEnv';
import { STOPPED_BEFORE_BASELINE } from '../../core/run/report';
import { setupActionsFor } from '../../shared/setupActions';
import { showSetupError } from './setupActionRunner';
import { redactingLog } from './redactingLog';
import { runtime } from '../loadRuntime';
import type { RunLog } from './redactingLog';

type Change = { kind: 'event'; event: LoopEvent; run: RunView } | { kind: 'history'; folder: vscode.Uri };

class ActiveRun implements RunView {
  state: RunState | undefined;
  lastEvent: LoopEvent | undefined;
  readonly controller = new AbortController();
  readonly gate = new PauseGate();
  /** The person chose "Continue with my edit": the engine's user-edit stop is resumed automatically. */
  editAccepted = false;
  snapshots: GitSnapshotStore | undefined;
  /** Where the test command came from (`task "test"`, a setting…): which button a setup problem gets. */
  testSource: string | undefined;
  constructor(readonly folder: vscode.Uri, readonly runId: string, readonly startedAt: number, readonly tally: RunTally, readonly redactor: Redactor) {}
}

export class RunService implements RunServiceApi {
  private readonly emitter = new vscode.EventEmitter<Change>();
  readonly onDidChange = this.emitter.event;
  private running: ActiveRun | undefined;
  private newest: ActiveRun | undefined;
  private readonly viewers = new Map<string, Promise<GitSnapshotStore>>();
  /** The newest run's redactor (its key, its test task's environment); before any run, the window's environment. */
  private redactor: Redactor = runSecrets({ env: process.env }).redactor;
  private readonly log: RunLog;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly config: ConfigReader,
    private readonly channel: vscode.LogOutputChannel,
    private readonly terminals: TestTerminalHost,
  ) {
    this.log = redactingLog(channel, () => this.redactor);
  }

  get active(): RunView | undefined {
    return this.running;
  }

  get latest(): RunView | undefined {
    return this.newest;
  }

  /** For the status bar: the active run, else the newest of this window. */
  current(): { folder: vscode.Uri; runId: string; tally: RunTally } | undefined {
    return this.running ?? this.newest;
  }

  /** Where this window keeps runs, histories and snapshots (also the check sessions of agents' tools). */
  get stateDir(): string {
    return (this.context.storageUri ?? this.context.globalStorageUri).fsPath;
  }

  private files(folder: vscode.Uri): RunFiles {
    return new RunFiles(this.stateDir, realpath(folder.fsPath), this.redactor);
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
      const wf = await pickFolder(this.context.workspaceState, folder);
      await saveOrRefuse(wf.uri);
      const settings = this.config.read(wf.uri);
      const parts = await prepareRun(wf, settings, this.context, () => this.terminals.acquire());
      this.redactor = parts.secrets.redactor;
      this.warnAll(parts.warnings);
      const loop = opts.focus?.length ? { ...parts.loop, focus: opts.focus } : parts.loop;
      this.log.info(`Fix until green on ${parts.cwd}${loop.focus ? ` for ${loop.focus.length === 1 ? 'the test' : 'the tests'} ${loop.focus.join(', ')}` : ''}: verifier \`${parts.spec.command}\` (${parts.spec.source}), model ${parts.actor.label}, budgets ${parts.loop.maxIterations} attempts / ${parts.loop.maxTokens} tokens / ${parts.loop.maxMinutes} min`);
      return await this.execute(wf.uri, loop, parts.actor, parts.verifier, { ignoreHistory: opts.ignoreHistory, testSource: parts.spec.source });
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
      const state = await rollbackRun(this.files(folder), await this.viewer(folder), runId, to);
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
      const files = this.files(folder);
      const state = await files.runs.load(runId);
      const grant: Grant = { hint, iterations: extra.iterations, tokens: extra.tokens, minutes: extra.minutes };
      const spent = spentWithoutGrant(state, grant, Date.now());
      if (spent) throw new GuardRefusal(`The run cannot go on: ${spent} in the retry's extra budget.`);
      const wf = await pickFolder(this.context.workspaceState, folder);
      await saveOrRefuse(wf.uri);
      const settings = this.config.read(wf.uri);
      const parts = await prepareRun(wf, settings, this.context, () => this.terminals.acquire());
      this.redactor = parts.secrets.redactor;
      this.warnAll(parts.warnings);
      this.log.info(`Retrying the run with +${extra.iterations} attempts, +${extra.tokens} tokens, +${extra.minutes} min${hint ? ` and the hint "${hint}"` : ''}.`);
      await this.execute(wf.uri, state.config, parts.actor, parts.verifier, { resume: { from: state, grant } });
    });
  }

  async history(folder: vscode.Uri): Promise<HistoryRecord[]> {
    const { records, warnings } = await this.files(folder).list();
    for (const w of warnings) {
      this.log.warn(w);
      this.toast('warning', this.redactor.text(w));
    }
    return this.redactor.json(records);
  }

  async clearHistory(folder: vscode.Uri): Promise<void> {
    const files = this.files(folder);
    const { records } = await files.list();
    const store = await this.viewer(folder);
    for (const r of records) {
      if (r.runId === this.running?.runId) continue;
      await files.runs.delete(r.runId);
      await store.deleteRun(r.runId).catch((err: Error) => this.log.warn(`Could not delete the snapshots of run ${r.runId}: ${err.message}`));
    }
    await files.history.clear();
    this.log.info(`Cleared the run history of ${folder.fsPath}.`);
    this.emitter.fire({ kind: 'history', folder });
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

  async iterationDetail(folder: vscode.Uri, runId: string, n: number): Promise<IterationRecord | undefined> {
    const live = [this.running, this.newest].find((r) => r?.state && r.runId === runId && r.folder.toString() === folder.toString());
    const state = live?.state ?? await this.files(folder).runs.load(runId).catch(() => undefined);
    const iteration = state?.iterations.find((it) => it.n === n);
    return iteration && (live?.redactor ?? this.redactor).json(iteration);
  }

  folders(): readonly vscode.Uri[] {
    const all = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri);
    return all.filter((u) => u.toString() === this.running?.folder.toString() || RunFiles.hasHistory(this.stateDir, realpath(u.fsPath)));
  }

  private async execute(
    folder: vscode.Uri, config: LoopConfig, actor: Actor, verifier: TerminalVerifier,
    opts: { resume?: { from: RunState; grant: Grant }; ignoreHistory?: boolean; testSource?: string } = {},
  ): Promise<RunState | undefined> {
    const resumed = opts.resume?.from;
    const now = Date.now();
    const tally = newTally(now, resumed?.limits ?? config);
    if (resumed) {
      tally.elapsedBeforeMs = resumed.elapsedBeforeMs + ((resumed.finishedAt ?? now) - resumed.startedAt);
      tally.tokens = resumed.tokens.prompt + resumed.tokens.completion;
      tally.iteration = resumed.iterations.length;
      // A run that never measured its start gets its first count when it resumes (run-started), not a 0 now.
      const start = resumed.baseline.witness.unmeasured ? [] : [resumed.baseline.witness.failing.length + resumed.baseline.witness.diagnostics.length];
      tally.trend = [...start, ...resumed.iterations.map((i) => i.failing.length + i.diagnostics)];
    }
    const run = new ActiveRun(folder, resumed?.runId ?? newRunId(), now, tally, this.redactor);
    run.state = resumed;
    run.testSource = opts.testSource;
    let showProgress: ((e: LoopEvent) => void) | undefined;
    let fixRun: FixRun;
    try {
      // The session takes the folder (one run per folder across windows and the CLI), finishes what a killed run
      // left in flight, and watches outside the tree for an agent.
      fixRun = await runtime().openFixRun({
        cwd: realpath(folder.fsPath), stateDir: this.stateDir, actor, verifier, typeChecks: verifier.typeChecks, config, redactor: run.redactor, runId: run.runId,
        resume: opts.resume, ignoreHistory: opts.ignoreHistory,
        wrap: { actor: (a) => gatedActor(a, run.gate), verifier: (v) => gatedVerifier(v, run.gate) },
        onEvent: (e) => {
          // The test terminal names each test run as the engine announces it: "baseline", "attempt 2".
          const label = testRunLabel(e, 'attempt');
          if (label) verifier.nameNextRuns(label);
          this.onEvent(run, e);
          showProgress?.(e);
        },
        onWarning: (m) => this.log.warn(m),
        onRecovered: (sentence) => {
          this.log.warn(sentence);
          void vscode.window.showWarningMessage(`Greenloop: ${sentence}`);
        },
        // "Continue with my edit": the engine stopped rather than overwrite it; the session picks it up and goes on.
        keepPersonsEdit: () => {
          const keep = run.editAccepted;
          run.editAccepted = false;
          return keep;
        },
      });
    } catch (err) {
      this.report(err);
      return undefined;
    }
    run.snapshots = fixRun.snapshots;
    const typing = watchTyping(folder, (file) => this.pauseFor(run, file), (file, decision) => this.decide(run, file, decision));
    this.running = run;
    this.newest = run;
    void vscode.commands.executeCommand('setContext', 'greenloop.running', true);
    this.emitter.fire({ kind: 'history', folder });

    let state: RunState | undefined;
    try {
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Greenloop', cancellable: true },
        async (progress, token) => {
          token.onCancellationRequested(() => this.stop());
          showProgress = (e) => {
            const line = liveLine(e);
            if (line) progress.report({ message: run.redactor.text(line) });
          };
          try {
            return await fixRun.run(run.controller.signal);
          } finally {
            showProgress = undefined;
          }
        },
      );
      state = result.state;
      if (result.saveError) this.log.error(`Could not save run ${result.state.runId}: ${result.saveError.message}`);
    } catch (err) {
      run.tally.outcome = 'error';
      run.tally.phase = 'done';
      run.tally.finishedAt = Date.now();
      run.tally.reasonText = run.redactor.text((err as Error).message);
      if (err instanceof runtime().RunNotStarted && err.why === 'cancelled') {
        run.tally.outcome = 'cancelled';
        run.tally.reasonText = STOPPED_BEFORE_BASELINE;
        this.log.info(STOPPED_BEFORE_BASELINE);
        void vscode.window.showInformationMessage(`Greenloop: ${STOPPED_BEFORE_BASELINE}`);
      } else {
        this.report(err);
      }
    } finally {
      typing.dispose();
      this.running = undefined;
      void vscode.commands.executeCommand('setContext', 'greenloop.running', false);
    }
    if (state) await this.finished(run, state);
    this.emitter.fire({ kind: 'history', folder });
    return state;
  }

  private async finished(run: ActiveRun, state: RunState): Promise<void> {
    run.state = state;
    const attempts = `${state.iterations.length} attempt${state.iterations.length === 1 ? '' : 's'}`;
    const reasonText = run.redactor.text(state.reasonText);
    const openRun = 'Open run';
    const offerRun = (choice: string | undefined) => {
      if (choice === openRun) void vscode.commands.executeCommand('greenloop.openRunPanel', run.folder.toString(), run.runId);
    };
    if (state.outcome === 'green') {
      const what = state.config.focus?.length ? `the focused test${state.config.focus.length === 1 ? '' : 's'} pass${state.config.focus.length === 1 ? 'es' : ''}` : 'all tests pass';
      void vscode.window.showInformationMessage(`Greenloop: ${what} after ${attempts}.`, openRun).then(offerRun);
    } else if (state.outcome === 'escalated' && state.crossRun && state.iterations.length === 0) {
      // The cross-run guard stopped the run before any model call: the person may know better, and say so.
      const anyway = 'Run anyway';
      const hint = 'Open the last run';
      const choice = await vscode.window.showWarningMessage(reasonText, anyway, hint);
      if (choice === anyway) void this.start(run.folder, { ignoreHistory: true, focus: state.config.focus });
      else if (choice === hint) await vscode.commands.executeCommand('greenloop.openRunPanel', run.folder.toString(), (await this.files(run.folder).list()).records.filter((r) => r.runId !== run.runId).pop()?.runId ?? run.runId);
    } else if (state.outcome === 'escalated' && state.iterations.length === 0 && (state.reason === 'actor-error' || state.reason === 'verify-error')) {
      // Stopped before any model call on a setup problem: one sentence and the button that fixes it.
      void showSetupError(`Greenloop: ${reasonText}`, setupActionsFor(state.reason, reasonText, run.testSource), run.folder);
    } else if (state.outcome === 'escalated') {
      await vscode.commands.executeCommand('greenloop.openRunPanel', run.folder.toString(), run.runId).then(undefined, (err: Error) => this.log.error(`Could not open the run panel: ${err.message}`));
    } else if (state.outcome === 'cancelled') {
      // "Left at the best state" only means something when an attempt ran; before that nothing was changed.
      const where = state.iterations.length ? workspaceAtText(state.finalState) : null;
      void vscode.window.showInformationMessage(where ? `Greenloop stopped; the workspace is at ${where}.` : 'Greenloop stopped before any edit; the workspace is unchanged.', openRun).then(offerRun);
    } else {
      this.log.error(reasonText);
      const output = 'Show output';
      void vscode.window.showErrorMessage('Greenloop stopped on an internal error.', output, openRun).then((choice) => {
        if (choice === output) this.channel.show(true);
        else offerRun(choice);
      });
    }
  }

  private onEvent(run: ActiveRun, e: LoopEvent): void {
    run.lastEvent = e;
    foldEvent(run.tally, e, Date.now());
    // The status bar's tooltip shows it: an agent's failure quotes its output.
    run.tally.reasonText = run.redactor.text(run.tally.reasonText);
    if (e.type === 'run-started' || e.type === 'finished') run.state = e.state;
    const line = liveLine(e);
    if (line) {
      const text = run.redactor.text(line);
      if (e.type === 'warning' || e.type === 'escalated' || (e.type === 'verified' && (e.verdict === 'regression' || e.verdict === 'invalid-proposal'))) this.log.warn(text);
      else this.log.info(text);
      if (e.type === 'warning') this.toast('warning', `Greenloop: ${run.redactor.text(e.message)}`);
    }
    this.emitter.fire({ kind: 'event', event: e, run });
  }

  private pauseFor(run: ActiveRun, file: string): void {
    run.gate.pause();
    run.tally.paused = true;
    this.log.warn(`Paused: ${file} is being edited during the run.`);
    this.emitter.fire({ kind: 'history', folder: run.folder });
  }

  private decide(run: ActiveRun, file: string, decision: 'stop' | 'continue'): void {
    run.tally.paused = false;
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

  /** The active run's store when it is on this folder; else one opened for reading. */
  private viewer(folder: vscode.Uri): Promise<GitSnapshotStore> {
    if (this.running?.snapshots && this.running.folder.toString() === folder.toString()) return Promise.resolve(this.running.snapshots);
    const key = folder.toString();
    let store = this.viewers.get(key);
    if (!store) {
      const excludes = this.config.read(folder).loop.snapshotExcludes;
      store = runtime().openSnapshotStore({ workspace: realpath(folder.fsPath), stateDir: this.stateDir, excludes, runId: 'view', onWarning: (m) => this.log.warn(m) });
      store.catch(() => this.viewers.delete(key));
      this.viewers.set(key, store);
    }
    return store;
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
    if (run && run.folder.toString() === folder.toString() && run.runId === state.runId) {
      run.state = state;
      settleTally(run.tally, state);
    }
    this.log.info(message);
    void vscode.window.showInformationMessage(`Greenloop: ${message}`);
    this.emitter.fire({ kind: 'history', folder });
  }

  private report(err: unknown): void {
    const message = this.redactor.text(err instanceof Error ? err.message : String(err));
    this.log.error(message);
    // A setup problem gets the buttons that fix it; any other error a toast with its whole text one click away.
    const actions = setupActionsFor(null, message);
    if (actions.length) void showSetupError(message, actions);
    else this.toast('error', message);
  }

  /** Said before the run, like the engine's warnings: in the log and on a toast. */
  private warnAll(warnings: readonly string[]): void {
    for (const w of warnings) {
      this.log.warn(w);
      this.toast('warning', `Greenloop: ${this.redactor.text(w)}`);
    }
  }

  /** A long message is cut at a sentence end on the toast; its whole text is one click away in the output. */
  private toast(level: 'warning' | 'error', message: string): void {
    const { text, cut } = toastText(message);
    const output = 'Show output';
    const buttons = cut ? [output] : [];
    const shown = level === 'error' ? vscode.window.showErrorMessage(text, ...buttons) : vscode.window.showWarningMessage(text, ...buttons);
    void Promise.resolve(shown).then((choice) => {
      if (choice === output) this.channel.show(true);
    });
  }

  dispose(): void {
    this.running?.gate.resume();
    this.running?.controller.abort();
    this.emitter.dispose();
  }
}

function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}
