import * as vscode from 'vscode';
import type { CommandDeps, CommandHandler } from './commandDeps';
import { showError } from './commandDeps';

export function clearHistory({ runs }: CommandDeps): CommandHandler {
  return async (arg?: unknown) => {
    try {
      const folders = arg instanceof vscode.Uri ? [arg] : runs.folders();
      if (folders.length === 0) {
        void vscode.window.showInformationMessage('There is no Greenloop history to clear.');
        return;
      }
      const clear = 'Clear history';
      const answer = await vscode.window.showWarningMessage(
        `Delete Greenloop's run history and snapshots for ${folders.map((f) => vscode.workspace.asRelativePath(f, true) || f.fsPath).join(', ')}? Your files are not touched.`,
        { modal: true }, clear,
      );
      if (answer !== clear) return;
      for (const f of folders) await runs.clearHistory(f);
    } catch (err) {
      showError(err);
    }
  };
}
