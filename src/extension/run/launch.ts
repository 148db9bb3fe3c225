// "Fix until green" on the shared session (src/session/openFixRun: the store, journal, outside watch, engine, and the
// run saved with its history): this adds what only the window has — the pause gate, the test terminal's labels, the
// cancellable progress, the typing watch and "Continue with my edit".
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { Grant } from '../../core/loop/engine';
import type { LoopEvent } from '../../core/loop/events';
import type { Actor } from '../../ports/actor';
import type { TerminalVerifier } from '../testing/terminalVerifier';
import { testRunLabel } from '../testing/testRunLabel';
import type { RunState } from '../../ports/runState';
import type { FixRun } from '../../session/runFix';
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
  /** Retry with hint: the saved run goes on with the grant. */
  resume?: { from: RunState; grant: Grant };
  ignoreHistory?: boolean;
}

/**
 * Opens the run through the session and drives it to its end. Resolves to the run's final state, or undefined when
 * it did not start or ended on an error (both already reported through the host).
 */
export async function startRun(
  host: LaunchHost, run: LiveRun, config: LoopConfig, actor: Actor, verifier: TerminalVerifier,
  opts: LaunchOptions = {},
): Promise<RunState | undefined> {
  const { folder, runId } = run;
  let showProgress: ((e: LoopEvent) => void) | undefined;
  let fixRun: FixRun;
  try {
    // The session takes the folder (one run per folder across windows and the CLI), finishes what a killed run
    // left in flight, and watches outside the tree for an agent.
    fixRun = await runtime().openFixRun({
      cwd: realpath(folder.fsPath), stateDir: host.stateDir, actor, verifier, typeChecks: verifier.typeChecks, config, redactor: run.redactor, runId,
      checks: verifier.checks, withheldEnv: verifier.withheldEnv,
      resume: opts.resume, ignoreHistory: opts.ignoreHistory,
      wrap: { actor: (a) => gatedActor(a, run.gate), verifier: (v) => gatedVerifier(v, run.gate) },
      onEvent: (e) => {
        // The test terminal names each test run as the engine announces it: "baseline", "attempt 2".
        const label = testRunLabel(e, 'attempt');
        if (label) verifier.nameNextRuns(label);
        host.onEvent(run, e);
        showProgress?.(e);
      },
      onWarning: (m) => host.log.warn(m),
      onRecovered: (sentence) => {
        host.log.warn(sentence);
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
    host.report(err);
    return undefined;
  }
  run.snapshots = fixRun.snapshots;
  const typing = watchTyping(folder, (file) => host.pauseFor(run, file), (file, decision) => host.decide(run, file, decision));
  host.began(run);

  let state: RunState | undefined;
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Greenloop', cancellable: true },
      async (progress, token) => {
        token.onCancellationRequested(() => host.stop());
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
    run.finishedWith(state);
    if (result.saveError) host.log.error(`Could not save run ${state.runId}: ${result.saveError.message}`);
  } catch (err) {
    const cancelled = err instanceof runtime().RunNotStarted && err.why === 'cancelled';
    run.failed((err as Error).message, cancelled || run.controller.signal.aborted);
    if (cancelled || run.controller.signal.aborted) host.stoppedBeforeBaseline(run);
    else host.report(err);
  } finally {
    typing.dispose();
    host.ended(run);
  }
  return state;
}

export function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}
