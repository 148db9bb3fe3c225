// The Get Started walkthrough (package.json contributes.walkthroughs) opens once, the first time Greenloop starts
// after it is installed — however it was installed (the Extensions view, `code --install-extension`, a vsix) — and
// never again: a flag in globalState remembers it. VS Code's own setting for walkthroughs on install is honoured.
import * as vscode from 'vscode';

export const WALKTHROUGH_ID = 'greenloop.getStarted';
const SHOWN = 'greenloop.walkthroughShown';

export async function openWalkthroughOnce(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Promise<void> {
  if (context.globalState.get<boolean>(SHOWN)) return;
  await context.globalState.update(SHOWN, true);
  if (!vscode.workspace.getConfiguration('workbench.welcomePage').get<boolean>('walkthroughs.openOnInstall', true)) return;
  log.info('Opening the Get Started walkthrough: the first start since Greenloop was installed.');
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#${WALKTHROUGH_ID}`, false);
}
