// Runs the button a person pressed on a setup problem, and shows a setup problem with its buttons.
import * as vscode from 'vscode';
import type { SetupAction } from '../shared/setupActions';

export async function runSetupAction(action: SetupAction): Promise<void> {
  switch (action.id) {
    case 'openSettings':
      await vscode.commands.executeCommand('workbench.action.openSettings', action.setting ?? 'greenloop');
      return;
    case 'openTasks':
      await vscode.commands.executeCommand('workbench.action.tasks.openWorkspaceFileTasks');
      return;
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
export async function showSetupError(message: string, actions: readonly SetupAction[]): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, ...actions.map((a) => a.label));
  const picked = actions.find((a) => a.label === choice);
  if (picked) await runSetupAction(picked);
}
