// What the view commands share: the run service, the escalation panels and the extension's context.
import type * as vscode from 'vscode';
import type { CommandHandler } from '../commands/commandDeps';
import type { RunServiceApi } from '../run/runServiceApi';
import type { EscalationPanels } from './escalationPanel';

export interface ViewServices {
  context: vscode.ExtensionContext;
  runs: RunServiceApi;
  panels: EscalationPanels;
}

/** Each view command lives in its own file under src/extension/commands/ and is registered by registerViews' loop. */
export type ViewCommandFactory = (services: ViewServices) => CommandHandler;
