// Greenloop: Open last escalation: the newest escalated run, from this window or from any folder's history.
import * as vscode from 'vscode';
import type { ViewServices } from '../views/viewServices';
import type { CommandHandler } from './commandDeps';

export function openLastEscalation({ runs, panels }: ViewServices): CommandHandler {
  return async () => {
    const latest = runs.latest;
    if (latest?.record?.outcome === 'escalated') {
      panels.show(latest.folder, latest.runId);
      return;
    }
    let newest: { folder: vscode.Uri; runId: string; startedAt: number } | undefined;
    for (const folder of runs.folders()) {
      for (const r of await runs.history(folder)) {
        if (r.outcome === 'escalated' && (!newest || r.startedAt >= newest.startedAt)) newest = { folder, runId: r.runId, startedAt: r.startedAt };
      }
    }
    if (!newest) {
      void vscode.window.showInformationMessage('No Greenloop run has escalated in this workspace; the Loop history view lists every run.');
      return;
    }
    panels.show(newest.folder, newest.runId);
  };
}
