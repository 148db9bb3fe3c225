// Registers the views half of the extension: history tree, snapshot diffs, escalation panels and their commands.
import * as vscode from 'vscode';
import type { RunServiceApi } from '../run/runServiceApi';
import { openIterationDiff } from '../commands/openIterationDiff';
import { openLastEscalation } from '../commands/openLastEscalation';
import { openRunPanel } from '../commands/openRunPanel';
import { showHistory } from '../commands/showHistory';
import { showAgentTranscript } from '../commands/showAgentTranscript';
import { EscalationPanels } from './escalationPanel';
import { HistoryTreeProvider } from './historyTree';
import { SnapshotContentProvider } from './snapshotContent';
import { TranscriptContentProvider } from './transcriptContent';
import type { ViewCommandFactory, ViewServices } from './viewServices';

export const HISTORY_VIEW_ID = 'greenloop.history';
export const VIEW_COMMANDS: Record<string, ViewCommandFactory> = {
  'greenloop.showHistory': showHistory,
  'greenloop.openLastEscalation': openLastEscalation,
  'greenloop.openRunPanel': openRunPanel,
  'greenloop.openIterationDiff': openIterationDiff,
  'greenloop.showAgentTranscript': showAgentTranscript,
};

export function registerViews(context: vscode.ExtensionContext, runs: RunServiceApi): void {
  const panels = new EscalationPanels(context.extensionUri, runs);
  const tree = new HistoryTreeProvider(runs);
  const view = vscode.window.createTreeView(HISTORY_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  tree.onProblem = (message) => {
    view.message = message;
  };
  context.subscriptions.push(
    view.onDidExpandElement((e) => tree.expanded(e.element)),
    view.onDidCollapseElement((e) => tree.collapsed(e.element)),
    panels,
    tree,
    view,
    vscode.workspace.registerTextDocumentContentProvider(SnapshotContentProvider.scheme, new SnapshotContentProvider(runs)),
    vscode.workspace.registerTextDocumentContentProvider(TranscriptContentProvider.scheme, new TranscriptContentProvider(runs)),
  );

  const services: ViewServices = { context, runs, panels };
  for (const [id, make] of Object.entries(VIEW_COMMANDS)) {
    const handler = make(services);
    context.subscriptions.push(vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await handler(...args);
      } catch (err) {
        void vscode.window.showErrorMessage(`Greenloop: ${(err as Error).message || String(err)}`);
        return undefined;
      }
    }));
  }
}
