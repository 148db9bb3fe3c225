// Serves snapshot file contents to diff editors under the greenloop-snapshot: scheme (read-only by nature).
import * as vscode from 'vscode';
import type { RunServiceApi } from '../run/runServiceApi';
import { SNAPSHOT_SCHEME, parseSnapshotUri, snapshotUriParts } from './snapshotUri';
import type { SnapshotAddress } from './snapshotUri';

export function snapshotUri(address: SnapshotAddress): vscode.Uri {
  return vscode.Uri.from(snapshotUriParts(address));
}

export class SnapshotContentProvider implements vscode.TextDocumentContentProvider {
  static readonly scheme = SNAPSHOT_SCHEME;

  constructor(private readonly runs: RunServiceApi) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const address = parseSnapshotUri(uri.path, uri.query);
    if (!address) throw new Error(`${uri.toString()} is not a Greenloop snapshot address; open diffs from the Loop history view.`);
    const bytes = await this.runs.readSnapshotFile(vscode.Uri.parse(address.folder, true), address.snapshot, address.relPath);
    // A file that did not exist in that snapshot shows as empty, so creations and deletions read naturally in the diff.
    return bytes ? new TextDecoder('utf-8').decode(bytes) : '';
  }
}
