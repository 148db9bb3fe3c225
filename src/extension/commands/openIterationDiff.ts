// Shows what one attempt changed in one file: a diff editor between the attempt's before and after snapshots (for a
// protected test file the tests rewrote: between the state the tests ran on and what they left, which was undone).
// Args: folder URI string, run id, attempt number, workspace-relative path (as the Loop history tree passes them), and
// for one answer of an attempt that asked for several, its number: between the attempt's start and that answer's edit.
import * as vscode from 'vscode';
import type { ViewServices } from '../views/viewServices';
import { folderArg } from '../views/runLookup';
import { snapshotUri } from '../views/snapshotContent';
import type { CommandHandler } from './commandDeps';

export function openIterationDiff({ runs }: ViewServices): CommandHandler {
  return async (folderValue?: unknown, runIdValue?: unknown, nValue?: unknown, fileValue?: unknown, answerValue?: unknown) => {
    const folder = folderArg(folderValue);
    if (!folder || typeof runIdValue !== 'string' || typeof nValue !== 'number' || typeof fileValue !== 'string' || !fileValue) {
      throw new Error('greenloop.openIterationDiff needs a folder, a run id, an attempt number and a file; open it from a changed file in the Loop history view.');
    }
    const record = (await runs.run(folder, runIdValue))?.record;
    const iteration = record?.iterations.find((it) => it.n === nValue);
    if (!record || !iteration) {
      throw new Error(`Attempt ${nValue} of this run is not in the history any more (it may have been cleared); refresh the Loop history view.`);
    }
    const base = { folder: folder.toString(), relPath: fileValue };
    if (typeof answerValue === 'number') {
      const answer = iteration.candidates?.find((c) => c.k === answerValue);
      if (!answer?.snapshot) {
        void vscode.window.showInformationMessage(`Answer ${answerValue} of attempt ${nValue} was never applied, so there is no change to show.`);
        return;
      }
      const left = snapshotUri({ ...base, snapshot: iteration.beforeSnapshot });
      const right = snapshotUri({ ...base, snapshot: answer.snapshot });
      await vscode.commands.executeCommand('vscode.diff', left, right, `${fileValue} (attempt ${nValue}, answer ${answerValue}: before ↔ after)`, { preview: true });
      return;
    }
    // A protected test file the tests rewrote (undone with the rollback): as the tests started ↔ as they left it.
    if (iteration.testsWrote?.paths.includes(fileValue)) {
      const left = snapshotUri({ ...base, snapshot: iteration.afterSnapshot ?? iteration.beforeSnapshot });
      const right = snapshotUri({ ...base, snapshot: iteration.testsWrote.snapshot });
      await vscode.commands.executeCommand('vscode.diff', left, right, `${fileValue} (attempt ${nValue}: as tested ↔ as the tests left it, undone)`, { preview: true });
      return;
    }
    if (!iteration.afterSnapshot) {
      void vscode.window.showInformationMessage(`Attempt ${nValue} applied no edit, so there is no change to show.`);
      return;
    }
    const left = snapshotUri({ ...base, snapshot: iteration.beforeSnapshot });
    const right = snapshotUri({ ...base, snapshot: iteration.afterSnapshot });
    await vscode.commands.executeCommand('vscode.diff', left, right, `${fileValue} (attempt ${nValue}: before ↔ after)`, { preview: true });
  };
}
