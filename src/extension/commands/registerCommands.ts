// Every palette command of the host, registered by one loop. (The views register their own commands.)
import * as vscode from 'vscode';
import type { CommandDeps, CommandHandler } from './commandDeps';
import { checkTests } from './checkTests';
import { clearHistory } from './clearHistory';
import { fixUntilGreen } from './fixUntilGreen';
import { rollbackToBaseline } from './rollbackToBaseline';
import { rollbackToBest } from './rollbackToBest';
import { selectModel } from './selectModel';
import { setApiKey } from './setApiKey';
import { stop } from './stop';

export const HOST_COMMANDS: Record<string, (deps: CommandDeps) => CommandHandler> = {
  'greenloop.fixUntilGreen': fixUntilGreen,
  'greenloop.stop': stop,
  'greenloop.rollbackToBest': rollbackToBest,
  'greenloop.rollbackToBaseline': rollbackToBaseline,
  'greenloop.selectModel': selectModel,
  'greenloop.setApiKey': setApiKey,
  'greenloop.clearHistory': clearHistory,
  'greenloop.checkTests': checkTests,
};

export function registerCommands(deps: CommandDeps): void {
  for (const [id, make] of Object.entries(HOST_COMMANDS)) {
    deps.context.subscriptions.push(vscode.commands.registerCommand(id, make(deps)));
  }
}
