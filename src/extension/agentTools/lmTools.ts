// Greenloop as tools a chat agent in VS Code calls (Copilot agent mode, or any extension through vscode.lm.invokeTool):
// verify after each edit and obey the decision, roll back to the best or first state, or hand the folder to
// Greenloop's own "Fix until green" loop. Each answers in a few lines for the model and the same as JSON.
import * as vscode from 'vscode';
import type { CheckAnswer } from '../../session/checkAnswer';
import { toReport } from '../../core/run/report';
import { runSecrets } from '../../base/secretEnv';
import type { RunState } from '../../ports/runState';
import { countsText, workspaceAtText } from '../../shared/plainWords';
import { refuseToRun, toolFolder, withFolderSession, type ToolHostDeps } from './folderSessions';

export const TOOL_NAMES = {
  verify: 'greenloop_verify',
  rollback: 'greenloop_rollback',
  fixUntilGreen: 'greenloop_fixUntilGreen',
} as const;

export interface VerifyInput {
  restart?: boolean;
}

export interface RollbackInput {
  to?: 'best' | 'baseline';
}

export function registerLmTools(deps: ToolHostDeps): vscode.Disposable[] {
  // Older VS Code (before 1.95) has no tools API; the rest of the extension works without it.
  if (!('registerTool' in vscode.lm)) return [];
  return [
    vscode.lm.registerTool<VerifyInput>(TOOL_NAMES.verify, verifyTool(deps)),
    vscode.lm.registerTool<RollbackInput>(TOOL_NAMES.rollback, rollbackTool(deps)),
    vscode.lm.registerTool<Record<string, never>>(TOOL_NAMES.fixUntilGreen, fixUntilGreenTool(deps)),
  ];
}

function verifyTool(deps: ToolHostDeps): vscode.LanguageModelTool<VerifyInput> {
  return {
    prepareInvocation: () => ({ invocationMessage: 'Greenloop: running the tests and judging the change' }),
    invoke: (options, token) => answering(deps, (folder) => withFolderSession(folder, deps, async (session) => {
      const answer = await session.check(signalOf(token), { restart: options.input?.restart === true });
      return answerResult(answer.text, answer);
    })),
  };
}

function rollbackTool(deps: ToolHostDeps): vscode.LanguageModelTool<RollbackInput> {
  return {
    prepareInvocation: (options) => ({
      invocationMessage: `Greenloop: rolling back to the ${stateWords(targetOf(options.input))}`,
      confirmationMessages: rollbackConfirmation(targetOf(options.input), safeFolderName()),
    }),
    invoke: (options, token) => answering(deps, (folder) => withFolderSession(folder, deps, async (session) => {
      const to = targetOf(options.input);
      const { restored, answer } = await session.rollback(to, signalOf(token));
      const head = restored.length
        ? `Rolled back ${restored.length} file${restored.length === 1 ? '' : 's'} to the ${stateWords(to)}: ${restored.slice(0, 10).join(', ')}${restored.length > 10 ? ' …' : ''}.`
        : `Nothing to roll back: the files are as they were in the ${stateWords(to)}.`;
      return answerResult(`${head}\n${answer.text}`, { ...answer, restored });
    })),
  };
}

function fixUntilGreenTool(deps: ToolHostDeps): vscode.LanguageModelTool<Record<string, never>> {
  return {
    prepareInvocation: () => ({
      invocationMessage: 'Greenloop: fixing until green',
      confirmationMessages: fixConfirmation(safeFolderName()),
    }),
    invoke: () => answering(deps, async (folder) => {
      const state = await deps.runs.start(folder.uri);
      if (!state) return answerResult('Fix until green did not run to its end; Greenloop said why in a notification and in its output.', { outcome: 'error' });
      const redactor = deps.runs.latest?.runId === state.runId ? deps.runs.latest.redactor : runSecrets({ env: process.env }).redactor;
      return answerResult(outcomeText(state), toReport(state, redactor));
    }),
  };
}

/** The confirmation shown before a rollback: it changes files. */
export function rollbackConfirmation(to: 'best' | 'baseline', folder: string): vscode.LanguageModelToolConfirmationMessages {
  return {
    title: `Roll back ${folder}?`,
    message: `Greenloop puts every file this chat's checks saw change back as it was in the ${stateWords(to)}; later edits to those files are lost.`,
  };
}

export function fixConfirmation(folder: string): vscode.LanguageModelToolConfirmationMessages {
  return {
    title: `Fix ${folder} until green?`,
    message: 'Greenloop runs its own loop on this folder: the model set in greenloop.model.provider proposes edits and your tests judge each one, within the budgets in Settings.',
  };
}

function outcomeText(state: RunState): string {
  const attempts = `${state.iterations.length} attempt${state.iterations.length === 1 ? '' : 's'}`;
  const now = countsText(state.current.witness.failing.length, state.current.witness.diagnostics.length, state.current.witness.loadErrorFiles?.length);
  if (state.outcome === 'green') return `GREEN after ${attempts}: every test passes. Stop here.`;
  const head = `${state.outcome.toUpperCase()} after ${attempts} (${state.reason ?? 'no reason'}): ${state.reasonText}`;
  // The tests gave no result: a "0 failing" here would tell the agent all is well.
  if (state.current.witness.unmeasured) return `${head}\nThe tests gave no count; nothing was changed.`;
  const where = workspaceAtText(state.finalState);
  return `${head}\nNow ${now}${where ? `; the workspace is at ${where}` : ''}.`;
}

/** Runs `work` on the tool's folder, or answers why it runs nothing; the history view reads the folder again after. */
async function answering(deps: ToolHostDeps, work: (folder: vscode.WorkspaceFolder) => Promise<vscode.LanguageModelToolResult>): Promise<vscode.LanguageModelToolResult> {
  let folder: vscode.WorkspaceFolder | undefined;
  try {
    refuseToRun(deps.runs);
    folder = toolFolder();
    return await work(folder);
  } catch (err) {
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart((err as Error).message || String(err))]);
  } finally {
    if (folder) deps.runs.historyChanged(folder.uri);
  }
}

function answerResult(text: string, json: CheckAnswer | object): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text), new vscode.LanguageModelTextPart(JSON.stringify(json))]);
}

function targetOf(input: RollbackInput | undefined): 'best' | 'baseline' {
  return input?.to === 'baseline' ? 'baseline' : 'best';
}

function stateWords(to: 'best' | 'baseline'): string {
  return to === 'best' ? 'best state of this session' : 'state of its first check';
}

function safeFolderName(): string {
  try {
    return toolFolder().name;
  } catch {
    return 'the workspace';
  }
}

function signalOf(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}
