// Greenloop: Show loop history: reveals the Loop history view (VS Code adds a `<view id>.focus` command per view).
import * as vscode from 'vscode';
import type { CommandHandler } from './commandDeps';

export function showHistory(): CommandHandler {
  return () => vscode.commands.executeCommand('greenloop.history.focus');
}
