import * as vscode from 'vscode';
import type { CommandDeps, CommandHandler } from './commandDeps';

/** From the palette, the explorer (a folder Uri) or a test: `greenloop.fixUntilGreen`. */
export function fixUntilGreen({ runs }: CommandDeps): CommandHandler {
  return (arg?: unknown) => runs.start(arg instanceof vscode.Uri ? arg : typeof arg === 'string' ? vscode.Uri.parse(arg) : undefined);
}
