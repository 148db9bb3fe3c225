// Greenloop: Check the test command: runs the folder's test command once, as a run's baseline would (test task,
// greenloop.testCommand or package.json's test script, in the test terminal), and says what it saw — how many tests
// ran and how many fail — so a person knows Greenloop reads their tests before a model is asked anything.
import * as vscode from 'vscode';
import type { Witness } from '../../ports/verifier';
import { GuardRefusal, requireTrust } from '../run/editorGuards';
import { pickFolder, prepareVerifier } from '../run/runSetup';
import type { CommandDeps, CommandHandler } from './commandDeps';
import { showError } from './commandDeps';

export function checkTests({ context, runs, log, terminals }: CommandDeps): CommandHandler {
  return async (folderArg?: unknown) => {
    try {
      requireTrust();
      if (runs.active) throw new GuardRefusal(`A Greenloop run is using ${runs.active.folder.fsPath}; wait until it ends (or stop it with "Greenloop: Stop") and check again.`);
      const folder = await pickFolder(context.workspaceState, folderArg instanceof vscode.Uri ? folderArg : undefined);
      const parts = await prepareVerifier(folder, runs.config.read(folder.uri), context, () => terminals.acquire());
      try {
        parts.verifier.nameNextRuns('test command check');
        const witness = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: `Greenloop: running \`${parts.spec.command}\` once…`, cancellable: true },
          (_progress, token) => {
            const controller = new AbortController();
            token.onCancellationRequested(() => controller.abort());
            return parts.verifier.verify(controller.signal);
          },
        );
        const sentence = checkSentence(parts.spec.command, parts.spec.source, witness);
        log.info(sentence);
        void (witness.green || witness.ranCount ? vscode.window.showInformationMessage(sentence) : vscode.window.showWarningMessage(sentence));
      } finally {
        parts.verifier.dispose();
      }
    } catch (err) {
      if ((err as Error)?.name === 'AbortError') return;
      showError(err);
    }
  };
}

/** What one test run showed, in one sentence: the count, the failures, and what to do when nothing could be read. */
export function checkSentence(command: string, source: string, w: Witness): string {
  const ran = `\`${command}\` (${source})`;
  if (w.timedOut) return `${ran} did not finish in time; raise greenloop.verifyTimeoutSeconds or make the tests faster.`;
  if (w.unreadable && !w.ranCount) return `${ran} ran, but Greenloop could not read which tests ran in its output; see the terminal "Greenloop tests" and docs/runners.md for the reporters it reads.`;
  const count = w.ranCount ?? (w.passedCount ?? 0) + (w.failedCount ?? w.failing.length);
  const tests = `${count} test${count === 1 ? '' : 's'} ran`;
  const errors = w.diagnostics.length ? `, ${w.diagnostics.length} type or checker error${w.diagnostics.length === 1 ? '' : 's'}` : '';
  if (w.green) return `${ran}: ${tests}, all pass${errors}: the folder is green.`;
  const notLoaded = w.loadErrorFiles.length ? `, ${w.loadErrorFiles.length} test file${w.loadErrorFiles.length === 1 ? '' : 's'} did not load` : '';
  return `${ran}: ${tests}, ${w.failing.length} failing${notLoaded}${errors}. "Greenloop: Fix until green" can take it from here.`;
}
