// The run assembly of "Fix until green": open the workspace's store and journal and the outside watch, build and
// drive the engine under a cancellable progress, dispose the actor, release the journal, save the run and its
// history. Kept in one place so that replacing it with the shared session (src/session/) is one small change.
import * as fs from 'fs';
import * as os from 'os';
import * as vscode from 'vscode';
import type { LoopEngine } from '../../core/loop/engine';
import type { LoopEvent } from '../../core/loop/events';
import type { HistoryRecord } from '../../ports/history';
import { toHistoryRecord } from '../../core/run/historyRecord';
import type { Actor } from '../../ports/actor';
import type { OutsideWatch } from '../../ports/outside';
import type { TerminalVerifier } from '../testing/terminalVerifier';
import { testRunLabel } from '../testing/testRunLabel';
import { systemClock } from '../../base/systemClock';
import type { RunState } from '../../ports/runState';
import type { OpenedWorkspace } from '../../session/openWorkspace';
import type { LoopConfig } from '../../shared/config';
import type { RunFiles } from '../../store/runFiles';
import { watchTyping } from './editorGuards';
import { gatedActor, gatedVerifier } from './pauseGate';
import { liveLine } from './liveLines';
import { runtime } from '../loadRuntime';
import type { RunLog } from './redactingLog';
import type { LiveRun } from './liveRun';

/** What the assembly asks of the window: where state lives, the log, and the run service's reactions. */
export interface LaunchHost {
  readonly stateDir: string;
  readonly log: RunLog;
  files(folder: vscode.Uri): RunFiles;
  /** The run could not start, or ended on an error: said once, on a toast. */
  report(err: unknown): void;
  /** The run is now the window's active and newest one. */
  began(run: LiveRun): void;
  /** The run no longer holds the folder (its actor disposed, its journal released). */
  ended(run: LiveRun): void;
  onEvent(run: LiveRun, e: LoopEvent): void;
  pauseFor(run: LiveRun, file: string): void;
  decide(run: LiveRun, file: string, decision: 'stop' | 'continue'): void;
  /** Stopped before the baseline: the person pressed Cancel before the loop had anything to show. */
  stoppedBeforeBaseline(run: LiveRun): void;
  stop(): void;
}

export interface LaunchOptions {
  pastRuns?: HistoryRecord[];
  ignoreHistory?: boolean;
}

/**
 * Runs `go` on a new engine for `run` and saves what it ended with. Resolves to the run's final state, or undefined
 * when it did not start or ended on an error (both already reported through the host).
 */
export async function startRun(
  host: LaunchHost, run: LiveRun, config: LoopConfig, actor: Actor, verifier: TerminalVerifier,
  go: (engine: LoopEngine, signal: AbortSignal) => Promise<RunState>,
  opts: LaunchOptions = {},
): Promise<RunState | undefined> {
  const { folder, runId } = run;
  const cwd = realpath(folder.fsPath);
  let opened: OpenedWorkspace;
  let outside: OutsideWatch | undefined;
  try {
    // One run per folder across windows and the CLI; what a killed run left in flight is finished first.
    opened = await runtime().openWorkspace({ workspace: cwd, stateDir: host.stateDir, excludes: config.snapshotExcludes, runId, onWarning: (m) => host.log.warn(m) });
    // Opened before the first test run, so the ignored files the tests themselves write are known as theirs.
    outside = actor.editsWorkspace
      ? await runtime().openOutsideWatch({ workspace: cwd, stateDir: host.stateDir, home: os.homedir(), snapshots: opened.snapshots }).catch(async (err: Error) => {
        await opened.journal.release();
        throw err;
      })
      : undefined;
  } catch (err) {
    await actor.dispose?.();
    host.report(err);
    return undefined;
  }
  const { journal, recovered } = opened;
  run.snapshots = opened.snapshots;
  if (recovered) {
    host.log.warn(recovered.sentence);
    void vscode.window.showWarningMessage(`Greenloop: ${recovered.sentence}`);
  }
  const engine = new (runtime().LoopEngine)({
    cwd, actor: gatedActor(actor, run.gate), verifier: gatedVerifier(verifier, run.gate), snapshots: run.snapshots, journal, outside, clock: systemClock, config, redactor: run.redactor, runId,
    pastRuns: opts.pastRuns, ignoreHistory: opts.ignoreHistory,
  });
  engine.events.on((e) => {
    // The test terminal names each test run as the engine announces it: "baseline", "attempt 2".
    const label = testRunLabel(e, 'attempt');
    if (label) verifier.nameNextRuns(label);
    host.onEvent(run, e);
  });
  const typing = watchTyping(folder, (file) => host.pauseFor(run, file), (file, decision) => host.decide(run, file, decision));
  host.began(run);

  let state: RunState | undefined;
  try {
    state = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Greenloop', cancellable: true },
      async (progress, token) => {
        token.onCancellationRequested(() => host.stop());
        const off = engine.events.on((e) => {
          const line = liveLine(e);
          if (line) progress.report({ message: run.redactor.text(line) });
        });
        try {
          let s = await go(engine, run.controller.signal);
          // "Continue with my edit": the engine stopped rather than overwrite it; pick it up and go on.
          while (s.outcome === 'escalated' && s.reason === 'user-edit' && run.editAccepted && !run.controller.signal.aborted) {
            run.editAccepted = false;
            s = await engine.resume(s, { hint: '', iterations: 0 }, run.controller.signal);
          }
          return s;
        } finally {
          off();
        }
      },
    );
  } catch (err) {
    run.failed((err as Error).message, run.controller.signal.aborted);
    if (run.controller.signal.aborted) host.stoppedBeforeBaseline(run);
    else host.report(err);
  } finally {
    typing.dispose();
    // An agent's model gateway closes with the run; a failure to close is no reason to lose the run's end.
    await actor.dispose?.().catch((err: Error) => host.log.warn(`Could not close the agent's model gateway: ${err.message}`));
    await journal.release();
    host.ended(run);
  }
  if (state) await saveRun(host, run, state);
  return state;
}

async function saveRun(host: LaunchHost, run: LiveRun, state: RunState): Promise<void> {
  run.finishedWith(state);
  const files = host.files(run.folder);
  try {
    await files.runs.save(state);
    await files.history.append(toHistoryRecord(state));
  } catch (err) {
    host.log.error(`Could not save run ${state.runId}: ${(err as Error).message}`);
  }
}

export function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}
