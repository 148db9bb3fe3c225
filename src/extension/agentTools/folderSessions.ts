// A chat agent's check session on a workspace folder: the same verifier, settings and snapshot store as a run of
// "Fix until green" in this window, and one loop state per window and folder, so a chat's successive verify calls
// are judged against each other.
import * as vscode from 'vscode';
import type { CheckSession } from '../../session/checkSession';
import type { RunState } from '../../ports/runState';
import type { ConfigReader } from '../config';
import { GuardRefusal, requireTrust } from '../run/editorGuards';
import type { RunView } from '../run/runServiceApi';
import { prepareVerifier } from '../run/runSetup';
import type { VerifierParts } from '../run/runSetup';
import type { OutputSink } from '../testing/terminalVerifier';
import { runtime } from '../loadRuntime';
import { testRunLabel } from '../testing/testRunLabel';

/** What the tools need of the run service (RunService has all of it). */
export interface ToolRuns {
  readonly stateDir: string;
  readonly active: RunView | undefined;
  readonly latest: RunView | undefined;
  historyChanged(folder: vscode.Uri): void;
  start(folder?: vscode.Uri): Promise<RunState | undefined>;
}

export interface ToolHostDeps {
  context: vscode.ExtensionContext;
  config: ConfigReader;
  runs: ToolRuns;
  /** Where the test command's output is shown (the "Greenloop tests" terminal). */
  sink: () => OutputSink;
  log: { warn(message: string): void };
}

/** Who checks, as the history names the session's "model". */
export const TOOL_CLIENT = 'vscode-chat';

/** One key per window and folder: a new window (or a reload) begins a new session. */
export function toolSessionKey(cwd: string): string {
  return `vscode:${cwd}:${vscode.env.sessionId}`;
}

/** The folder a tool works on: the only one, else the active editor's, else the first. */
export function toolFolder(): vscode.WorkspaceFolder {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) throw new GuardRefusal('Greenloop needs an open folder to check; open one (File › Open Folder) and call the tool again.');
  if (folders.length === 1) return folders[0];
  const active = vscode.window.activeTextEditor?.document.uri;
  return (active && vscode.workspace.getWorkspaceFolder(active)) || folders[0];
}

/** Refuses what must not run: an untrusted workspace, or this window's own loop already writing the folder. */
export function refuseToRun(runs: ToolRuns): void {
  requireTrust();
  if (runs.active) {
    throw new GuardRefusal(`Greenloop's own loop is running on ${runs.active.folder.fsPath}; wait until it ends (or stop it with "Greenloop: Stop") and call the tool again.`);
  }
}

/**
 * Runs `work` on the folder's check session. Each tool call builds its own verifier, so what that verifier watches
 * (the Problems view's files) ends with the call, whether it answered, failed or was cancelled.
 */
export async function withFolderSession<T>(folder: vscode.WorkspaceFolder, deps: ToolHostDeps, work: (session: CheckSession) => Promise<T>): Promise<T> {
  const settings = deps.config.read(folder.uri);
  const parts = await prepareVerifier(folder, settings, deps.context, deps.sink);
  try {
    return await work(await openSession(parts, deps));
  } finally {
    parts.verifier.dispose();
  }
}

function openSession(parts: VerifierParts, deps: ToolHostDeps): Promise<CheckSession> {
  return runtime().openCheckSession({
    key: toolSessionKey(parts.cwd), client: TOOL_CLIENT, cwd: parts.cwd, stateDir: deps.runs.stateDir,
    verifier: parts.verifier, typeChecks: parts.verifier.typeChecks, config: parts.loop, redactor: parts.secrets.redactor,
    // Each check's test run is named in the terminal by its number, the one the answer to the agent gives.
    onEvent: (e) => {
      const label = testRunLabel(e, 'check');
      if (label) parts.verifier.nameNextRuns(label);
    },
    onWarning: (m) => deps.log.warn(m),
    onRecovered: (sentence) => deps.log.warn(sentence),
  });
}
