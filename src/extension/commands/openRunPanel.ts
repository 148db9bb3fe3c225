// Opens a run's panel: from the status bar and when a run escalates (folder URI string, run id), from a run in the
// Loop history view (the tree node), or from the palette (no arguments: the newest run of this window).
import * as vscode from 'vscode';
import type { ViewServices } from '../views/viewServices';
import { folderArg } from '../views/runLookup';
import type { CommandHandler } from './commandDeps';

export function openRunPanel({ runs, panels }: ViewServices): CommandHandler {
  return (...args: unknown[]) => {
    if (args.length === 0 || args[0] === undefined) {
      const latest = runs.active ?? runs.latest;
      if (!latest) {
        void vscode.window.showInformationMessage('Greenloop has not run in this window yet; run "Greenloop: Fix until green", or pick a run in the Loop history view.');
        return;
      }
      panels.show(latest.folder, latest.runId);
      return;
    }
    let folderValue: unknown = args[0];
    let runIdValue: unknown = args[1];
    if (typeof folderValue === 'object' && folderValue !== null && !(folderValue instanceof vscode.Uri)) {
      const node = folderValue as { folder?: unknown; runId?: unknown; record?: { runId?: unknown } };
      folderValue = node.folder;
      runIdValue = node.runId ?? node.record?.runId;
    }
    const folder = folderArg(folderValue);
    if (!folder || typeof runIdValue !== 'string' || !runIdValue) {
      throw new Error('greenloop.openRunPanel needs a workspace folder URI and a run id; open runs from the Loop history view.');
    }
    panels.show(folder, runIdValue);
  };
}
