// Shows what one attempt changed in one file: a diff editor between the attempt's before and after snapshots.
// Args: folder URI string, run id, attempt number, workspace-relative path (as the Loop history tree passes them).
import * as vscode from 'vscode';
import type { ViewServices } from '../views/viewServices';
import { findRunRecord, folderArg } from '../views/runLookup';
import { snapshotUri } from '../views/snapshotContent';
import type { CommandHandler } from './commandDeps';

export function openIterationDiff({ runs }: ViewServices): CommandHandler {
  return async (folderValue?: unknown, runIdValue?: unknown, nValue?: unknown, fileValue?: unknown) => {
    const folder = folderArg(folderValue);
    if (!folder || typeof runIdValue !== 'string' || typeof nValue !== 'number' || typeof fileValue !== 'string' || !fileValue) {
      throw new Error('greenloop.openIterationDiff needs a folder, a run id, an attempt number and a file; open it from a changed file in the Loop history view.');
    }
    const record = await findRunRecord(runs, folder, runIdValue);
    const iteration = record?.iterations.find((it) => it.n === nValue);
    if (!record || !iteration) {
      throw new Error(`Attempt ${nValue} of this run is not in the history any more (it may have been cleared); refresh the Loop history view.`);
    }
    if (!iteration.afterSnapshot) {
      void vscode.window.showInformationMessage(`Attempt ${nValue} applied no edit, so there is no change to show.`);
      return;
    }
    const base = { folder: folder.toString(), relPath: fileValue };
    const left = snapshotUri({ ...base, snapshot: iteration.beforeSnapshot });
    const right = snapshotUri({ ...base, snapshot: iteration.afterSnapshot });
    await vscode.commands.executeCommand('vscode.diff', left, right, `${fileValue} (attempt ${nValue}: before ↔ after)`, { preview: true });
  };
}
