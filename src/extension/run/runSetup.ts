// Everything a run needs before the engine starts: the folder, its settings, its verifier and its model.
// Each failure ends in one sentence a person can act on.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { Actor } from '../../ports/actor';
import type { ExtensionSettings } from '../config';
import type { LoopConfig } from '../../shared/config';
import { createActor } from '../models/actorFactory';
import { GuardRefusal } from './editorGuards';
import { resolveTestSpec } from '../testing/testSource';
import type { TestSpec } from '../testing/testSource';
import { ProblemsChecker } from '../testing/problemsChecker';
import { TerminalVerifier } from '../testing/terminalVerifier';
import type { OutputSink } from '../testing/terminalVerifier';
import { readApiKey } from '../models/secrets';
import { runSecrets } from '../../base/secretEnv';
import type { RunSecrets } from '../../base/secretEnv';

const LAST_FOLDER = 'greenloop.lastFolder';

export async function pickFolder(memento: vscode.Memento, given?: vscode.Uri): Promise<vscode.WorkspaceFolder> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (given) {
    const wf = vscode.workspace.getWorkspaceFolder(given);
    if (!wf) throw new GuardRefusal(`${given.fsPath} is not in an open workspace folder; open it in VS Code and try again.`);
    return wf;
  }
  if (folders.length === 0) throw new GuardRefusal('Greenloop needs an open folder to fix; open one (File › Open Folder) and try again.');
  if (folders.length === 1) return folders[0];
  const last = memento.get<string>(LAST_FOLDER);
  const ordered = [...folders].sort((a, b) => Number(b.uri.toString() === last) - Number(a.uri.toString() === last));
  const pick = await vscode.window.showQuickPick(
    ordered.map((f) => ({ label: f.name, description: f.uri.toString() === last ? 'last used' : f.uri.fsPath, folder: f })),
    { title: 'Greenloop: which folder should go green?' },
  );
  if (!pick) throw new GuardRefusal('No folder was chosen, so the run did not start.');
  await memento.update(LAST_FOLDER, pick.folder.uri.toString());
  return pick.folder;
}

/** What judges a folder: its test command as a verifier, the loop settings that go with it, and the run's secrets. */
export interface VerifierParts {
  cwd: string;
  spec: TestSpec;
  verifier: TerminalVerifier;
  /** The run's loop settings as set; the session adds the protection of tsconfig when the verifier type-checks. */
  loop: LoopConfig;
  /** What the test command does not inherit, and the redactor everything the run writes or sends passes. */
  secrets: RunSecrets;
}

export interface RunParts extends VerifierParts {
  actor: Actor;
  /** About the actor, e.g. an agent whose requests are not counted; shown like the run's warnings. */
  warnings: string[];
}

/**
 * The verifier half of a run, also all a check from an outside agent needs (no model). `apiKey`: the stored key,
 * masked everywhere and withheld from the test command.
 */
export async function prepareVerifier(
  folder: vscode.WorkspaceFolder, settings: ExtensionSettings, context: vscode.ExtensionContext, sink: () => OutputSink, apiKey?: string,
): Promise<VerifierParts> {
  const cwd = fs.realpathSync(folder.uri.fsPath);
  const spec = await resolveTestSpec(folder, settings.testCommand, context.workspaceState);
  // The test task's own variables count too: a token it sets is as secret as one in the window's environment.
  const secrets = runSecrets({ env: { ...process.env, ...spec.env }, apiKey });
  const problems = settings.diagnosticsSource === 'problems' ? new ProblemsChecker({ folder: cwd }) : undefined;
  // tsc keeps its build info in the window's state folder (where runs and snapshots are), never in the workspace.
  const tscBuildInfoDir = path.join((context.storageUri ?? context.globalStorageUri).fsPath, 'tsc');
  const verifier = new TerminalVerifier({ ...spec, cwd: spec.cwd === folder.uri.fsPath ? cwd : spec.cwd }, settings.tsc, settings.loop.verifyTimeoutS, sink, secrets.withheld, { checks: settings.checks, problems, tscBuildInfoDir });
  return { cwd, spec, verifier, loop: settings.loop, secrets };
}

export async function prepareRun(
  folder: vscode.WorkspaceFolder, settings: ExtensionSettings, context: vscode.ExtensionContext, sink: () => OutputSink,
): Promise<RunParts> {
  // An agent's gateway sends the stored key upstream too; the agent itself only ever sees a placeholder.
  const apiKey = settings.model.provider !== 'vscode-lm' ? (await readApiKey(context.secrets)) || undefined : undefined;
  const parts = await prepareVerifier(folder, settings, context, sink, apiKey);
  const { actor, warnings } = await createActor(settings, context.globalState, apiKey, { cwd: parts.cwd, withheld: parts.secrets.withheld });
  return { ...parts, actor, warnings };
}
