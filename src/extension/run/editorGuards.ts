// Safety around the person's own editors: trust, unsaved files at start, and typing during a run.
import * as path from 'path';
import * as vscode from 'vscode';

export class GuardRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GuardRefusal';
  }
}

export function requireTrust(): void {
  if (!vscode.workspace.isTrusted) {
    throw new GuardRefusal('Greenloop runs your tests, which runs code from this workspace, so it needs a trusted workspace; trust it with "Workspaces: Manage Workspace Trust" and try again.');
  }
}

function inFolder(doc: vscode.TextDocument, folder: vscode.Uri): boolean {
  if (doc.uri.scheme !== 'file') return false;
  const rel = path.relative(folder.fsPath, doc.uri.fsPath);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** Unsaved editors would be tested as they are on disk and later clash with the loop's writes. */
export async function saveOrRefuse(folder: vscode.Uri): Promise<void> {
  const dirty = vscode.workspace.textDocuments.filter((d) => d.isDirty && inFolder(d, folder));
  if (dirty.length === 0) return;
  const names = dirty.slice(0, 3).map((d) => path.basename(d.uri.fsPath)).join(', ') + (dirty.length > 3 ? ` and ${dirty.length - 3} more` : '');
  const save = 'Save all and run';
  const answer = await vscode.window.showWarningMessage(`${names} ${dirty.length === 1 ? 'has' : 'have'} unsaved changes; Greenloop tests the files on disk.`, save, 'Cancel');
  if (answer !== save) throw new GuardRefusal('Fix until green did not start because some files are unsaved; save them (or choose "Save all and run") and try again.');
  for (const d of dirty) {
    if (!(await d.save())) throw new GuardRefusal(`Could not save ${path.basename(d.uri.fsPath)}, so the run did not start; save it by hand and try again.`);
  }
}

export type EditDecision = 'stop' | 'continue';

/**
 * While a run is active, notices the person typing in a file of the folder, pauses the loop (onTyping) and
 * asks what to do. The loop's own writes reach editors as clean reloads and never make a document dirty.
 */
export function watchTyping(folder: vscode.Uri, onTyping: (file: string) => void, decide: (file: string, decision: EditDecision) => void): vscode.Disposable {
  let asking = false;
  return vscode.workspace.onDidChangeTextDocument((e) => {
    if (asking || e.contentChanges.length === 0 || !e.document.isDirty || !inFolder(e.document, folder)) return;
    asking = true;
    const file = vscode.workspace.asRelativePath(e.document.uri, false);
    onTyping(file);
    const stop = 'Stop the run';
    const cont = 'Continue with my edit';
    void vscode.window
      .showWarningMessage(`You are editing ${file} while Greenloop runs; it is paused so nothing you type is overwritten.`, stop, cont)
      .then(async (answer) => {
        if (answer === cont) await e.document.save();
        decide(file, answer === cont ? 'continue' : 'stop');
        asking = false;
      });
  });
}
