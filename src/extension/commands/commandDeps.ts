// What commands get to work with, and how they read the (folder, runId) that views pass them.
import * as vscode from 'vscode';
import type { RunService } from '../run/runService';
import type { TestTerminalHost } from '../testing/testTerminal';

export interface CommandDeps {
  context: vscode.ExtensionContext;
  runs: RunService;
  log: vscode.LogOutputChannel;
  /** The "Greenloop tests" terminal, where a check's test run shows. */
  terminals: TestTerminalHost;
}

export type CommandHandler = (...args: unknown[]) => unknown;

export interface RunTarget {
  folder: vscode.Uri;
  runId: string;
}

/**
 * Views call with (folder Uri string, runId), or a tree element carrying { folder, runId | record }; the palette calls
 * with nothing, meaning the newest run of this window.
 */
export function runTarget(runs: RunService, args: unknown[]): RunTarget {
  const [first, second] = args;
  if (typeof first === 'string' && typeof second === 'string') return { folder: vscode.Uri.parse(first), runId: second };
  if (first && typeof first === 'object') {
    const o = first as { folder?: unknown; runId?: unknown; record?: { runId?: unknown } };
    const runId = typeof o.runId === 'string' ? o.runId : o.record?.runId;
    if (typeof runId === 'string' && o.folder) {
      const folder = typeof o.folder === 'string' ? vscode.Uri.parse(o.folder) : (o.folder as vscode.Uri);
      return { folder, runId };
    }
  }
  const latest = runs.latest;
  if (!latest) throw new Error('There is no Greenloop run in this window yet; pick one in the Loop history view, or run "Greenloop: Fix until green".');
  return { folder: latest.folder, runId: latest.runId };
}

export function showError(err: unknown): void {
  void vscode.window.showErrorMessage(err instanceof Error ? err.message : String(err));
}
