// Runs the button a person pressed on a setup problem, and shows a setup problem with its buttons.
import * as vscode from 'vscode';
import type { SetupAction } from '../../shared/setupActions';

/** `folder`: the workspace folder the problem is in (its own tasks.json opens directly). */
export async function runSetupAction(action: SetupAction, folder?: vscode.Uri): Promise<void> {
  switch (action.id) {
    case 'openSettings':
      await vscode.commands.executeCommand('workbench.action.openSettings', action.setting ?? 'greenloop');
      return;
    case 'openTasks': {
      const tasks = folder && vscode.Uri.joinPath(folder, '.vscode', 'tasks.json');
      const exists = tasks ? await vscode.workspace.fs.stat(tasks).then(() => true, () => false) : false;
      // The folder's own file, opened as a file; without one, VS Code's "Configure Tasks" makes it.
      if (tasks && exists) await vscode.window.showTextDocument(tasks);
      else await vscode.commands.executeCommand('workbench.action.tasks.configureTaskRunner');
      return;
    }
    case 'manageTrust':
      await vscode.commands.executeCommand('workbench.trust.manage');
      return;
    case 'setApiKey':
      await vscode.commands.executeCommand('greenloop.setApiKey');
      return;
    case 'selectModel':
      await vscode.commands.executeCommand('greenloop.selectModel');
      return;
  }
}

/** One sentence, and the buttons that fix it; the chosen one runs. */
export async function showSetupError(message: string, actions: readonly SetupAction[], folder?: vscode.Uri): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, ...actions.map((a) => a.label));
  const picked = actions.find((a) => a.label === choice);
  if (picked) await runSetupAction(picked, folder);
}
