// Folder arguments and names the views and commands share.
import * as path from 'path';
import * as vscode from 'vscode';

export function sameFolder(a: vscode.Uri, b: vscode.Uri): boolean {
  return a.toString() === b.toString();
}

export function folderName(folder: vscode.Uri): string {
  return vscode.workspace.getWorkspaceFolder(folder)?.name ?? path.basename(folder.fsPath);
}

/** Command arguments arrive untyped (palette, tree, status bar, tests); a folder may be a Uri or its string. */
export function folderArg(value: unknown): vscode.Uri | undefined {
  if (value instanceof vscode.Uri) return value;
  if (typeof value === 'string' && value) {
    try {
      return vscode.Uri.parse(value, true);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
