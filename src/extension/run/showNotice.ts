// Puts an EndNotice on screen and does what its buttons say.
import * as vscode from 'vscode';
import type { EndNotice, NoticeButton } from './endNotice';
import { showSetupError } from './setupActionRunner';
import type { RunLog } from './redactingLog';

export interface NoticeTarget {
  log: RunLog;
  /** The output channel "Show output" opens. */
  showOutput(): void;
  /** The run the notice is about: "Open run", the panel, the setup actions' folder. */
  run?: { folder: vscode.Uri; runId: string };
  runAnyway?(): void;
  openLastRun?(): Promise<void>;
}

export async function showNotice(notice: EndNotice, target: NoticeTarget): Promise<void> {
  const { run } = target;
  if (notice.kind === 'panel') {
    if (!run) return;
    await vscode.commands.executeCommand('greenloop.openRunPanel', run.folder.toString(), run.runId).then(undefined, (err: Error) => target.log.error(`Could not open the run panel: ${err.message}`));
    return;
  }
  if (notice.kind === 'setup') {
    void showSetupError(notice.text, notice.actions, run?.folder);
    return;
  }
  if (notice.logError !== undefined) target.log.error(notice.logError);
  const show = notice.level === 'error' ? vscode.window.showErrorMessage : notice.level === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const answered = Promise.resolve(show(notice.text, ...notice.buttons)).then((choice) => act(choice as NoticeButton | undefined, target));
  if (notice.waitsForChoice) await answered;
  else void answered;
}

async function act(choice: NoticeButton | undefined, target: NoticeTarget): Promise<void> {
  if (choice === 'Show output') target.showOutput();
  else if (choice === 'Open run' && target.run) void vscode.commands.executeCommand('greenloop.openRunPanel', target.run.folder.toString(), target.run.runId);
  else if (choice === 'Run anyway') target.runAnyway?.();
  else if (choice === 'Open the last run') await target.openLastRun?.();
}
