import * as vscode from 'vscode';
import { promptForApiKey } from '../models/secrets';
import type { CommandDeps, CommandHandler } from './commandDeps';

export function setApiKey({ context, log }: CommandDeps): CommandHandler {
  return async () => {
    const result = await promptForApiKey(context.secrets);
    if (result === 'unchanged') return;
    // Only the fact is logged, never the key.
    log.info(result === 'stored' ? 'API key stored in secret storage.' : 'API key removed from secret storage.');
    void vscode.window.showInformationMessage(result === 'stored' ? 'Greenloop stored the API key in VS Code\'s secret storage.' : 'Greenloop removed the stored API key.');
  };
}
