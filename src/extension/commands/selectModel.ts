import * as vscode from 'vscode';
import { modelLabel, pickModel } from '../models/modelPicker';
import type { CommandDeps, CommandHandler } from './commandDeps';
import { showError } from './commandDeps';

export function selectModel({ context, log }: CommandDeps): CommandHandler {
  return async () => {
    try {
      const model = await pickModel(context.globalState);
      if (!model) return;
      log.info(`Model chosen: ${modelLabel(model)}.`);
      const provider = vscode.workspace.getConfiguration('greenloop').get<string>('model.provider');
      const note = provider === 'openai-compatible' ? ' (greenloop.model.provider is "openai-compatible"; set it to "vscode-lm" to use it)' : '';
      void vscode.window.showInformationMessage(`Greenloop will use ${modelLabel(model)}${note}.`);
    } catch (err) {
      showError(err);
    }
  };
}
