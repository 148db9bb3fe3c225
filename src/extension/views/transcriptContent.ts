// Serves agent transcripts under the greenloop-transcript: scheme: read-only documents, built from the saved run
// each time they are opened, so nothing of them is written to disk twice.
import * as vscode from 'vscode';
import type { RunServiceApi } from '../run/runServiceApi';
import { agentTranscriptText, parseTranscriptQuery, TRANSCRIPT_SCHEME, transcriptUriParts } from './agentTranscript';
import type { TranscriptAddress } from './agentTranscript';

export function transcriptUri(address: TranscriptAddress): vscode.Uri {
  return vscode.Uri.from(transcriptUriParts(address));
}

export class TranscriptContentProvider implements vscode.TextDocumentContentProvider {
  static readonly scheme = TRANSCRIPT_SCHEME;

  constructor(private readonly runs: RunServiceApi) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const address = parseTranscriptQuery(uri.query);
    if (!address) throw new Error(`${uri.toString()} is not a Greenloop transcript address; open transcripts from the Loop history view.`);
    const run = await this.runs.run(vscode.Uri.parse(address.folder, true), address.runId);
    const iteration = await run?.iteration(address.n);
    if (!iteration?.agent) return `Attempt ${address.n} of run ${address.runId} has no agent transcript any more (its saved run may have been cleared).\n`;
    return agentTranscriptText(address.n, iteration.agent, iteration.reverted);
  }
}
