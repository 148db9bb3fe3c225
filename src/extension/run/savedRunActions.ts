// What a person can do with a finished run: roll back to its best or baseline state, or keep the workspace.
// Each acts on the run's saved state and records the change in history.
import * as vscode from 'vscode';
import { toHistoryRecord } from '../../core/run/historyRecord';
import type { RunState } from '../../ports/runState';
import type { SnapshotStore } from '../../ports/snapshots';
import type { RunFiles } from '../../store/runFiles';
import type { ExtraBudget } from './runServiceApi';
import { GuardRefusal } from './editorGuards';

export function validateExtra(extra: ExtraBudget): void {
  if (!Number.isInteger(extra.iterations) || extra.iterations < 1) {
    throw new GuardRefusal(`The extra budget must grant at least 1 more attempt (got ${String(extra.iterations)}); enter a whole number of attempts.`);
  }
  if (!Number.isInteger(extra.tokens) || extra.tokens < 0) {
    throw new GuardRefusal(`The extra token budget must be 0 or a whole positive number (got ${String(extra.tokens)}).`);
  }
  if (typeof extra.minutes !== 'number' || !Number.isFinite(extra.minutes) || extra.minutes < 0) {
    throw new GuardRefusal(`The extra time budget must be 0 or a positive number of minutes (got ${String(extra.minutes)}).`);
  }
}

/**
 * Restores the run's best or baseline snapshot; asks first when files changed since the run ended. Returns the run's
 * new state (what every view shows from now on); null when declined.
 */
export async function rollbackRun(files: RunFiles, store: SnapshotStore, runId: string, to: 'best' | 'baseline'): Promise<RunState | null> {
  const state = await files.runs.load(runId);
  const ref = to === 'best' ? state.best : state.baseline;
  const since = await store.changedSince(state.current.snapshot);
  if (since.length) {
    const shown = since.slice(0, 3).join(', ') + (since.length > 3 ? ` and ${since.length - 3} more` : '');
    const go = 'Roll back anyway';
    const answer = await vscode.window.showWarningMessage(
      `${shown} changed after the run ended; rolling back to its ${to} state overwrites ${since.length === 1 ? 'that change' : 'those changes'}.`,
      { modal: true }, go,
    );
    if (answer !== go) return null;
  }
  await store.restore(ref.snapshot);
  state.current = { snapshot: ref.snapshot, tree: ref.tree, witness: ref.witness };
  state.finalState = to;
  state.warnings.push(`Rolled back to the ${to} state by you at ${new Date().toISOString()}.`);
  return record(files, state);
}

export async function acceptRun(files: RunFiles, runId: string): Promise<RunState> {
  const state = await files.runs.load(runId);
  state.finalState = 'last';
  state.warnings.push(`Accepted as it is by you at ${new Date().toISOString()}.`);
  return record(files, state);
}

async function record(files: RunFiles, state: RunState): Promise<RunState> {
  await files.runs.save(state);
  await files.history.append(toHistoryRecord(state));
  return state;
}
