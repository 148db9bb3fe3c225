// Opens an agent attempt's transcript (last message, request log, output tail) as a read-only Markdown document.
// Args: folder URI string, run id, attempt number (as the Loop history tree passes them).
import * as vscode from 'vscode';
import type { ViewServices } from '../views/viewServices';
import { folderArg } from '../views/runLookup';
import { transcriptUri } from '../views/transcriptContent';
import type { CommandHandler } from './commandDeps';

export function showAgentTranscript(_services: ViewServices): CommandHandler {
  return async (folderValue?: unknown, runIdValue?: unknown, nValue?: unknown) => {
    const folder = folderArg(folderValue);
    if (!folder || typeof runIdValue !== 'string' || typeof nValue !== 'number') {
      throw new Error('greenloop.showAgentTranscript needs a folder, a run id and an attempt number; open it from an agent line in the Loop history view.');
    }
    const doc = await vscode.workspace.openTextDocument(transcriptUri({ folder: folder.toString(), runId: runIdValue, n: nValue }));
    await vscode.window.showTextDocument(doc, { preview: true });
  };
}
