// Which vscode.lm chat model a run uses: the one chosen with "Select model" (remembered), else the first one.
import * as vscode from 'vscode';

const CHOSEN_MODEL = 'greenloop.lmModelId';

export class NoModelError extends Error {
  constructor() {
    super(
      'No VS Code chat model is available: install and sign in to a chat model provider (for example GitHub Copilot), '
      + 'or set greenloop.model.provider to "openai-compatible" with greenloop.model.baseUrl and greenloop.model.name and store the key with "Greenloop: Set API key".',
    );
    this.name = 'NoModelError';
  }
}

export function modelLabel(m: vscode.LanguageModelChat): string {
  return `${m.name} (${m.vendor})`;
}

/** The remembered model, or the first available; throws NoModelError when there is none. */
export async function resolveModel(memento: vscode.Memento): Promise<vscode.LanguageModelChat> {
  const models = await vscode.lm.selectChatModels();
  if (models.length === 0) throw new NoModelError();
  const chosen = memento.get<string>(CHOSEN_MODEL);
  return models.find((m) => m.id === chosen) ?? models[0];
}

/** Asks which model to use and remembers it; undefined when the person dismissed the pick. */
export async function pickModel(memento: vscode.Memento): Promise<vscode.LanguageModelChat | undefined> {
  const models = await vscode.lm.selectChatModels();
  if (models.length === 0) throw new NoModelError();
  const chosen = memento.get<string>(CHOSEN_MODEL);
  const items = models.map((m) => ({
    label: m.name,
    description: `${m.vendor} · ${m.family}${m.id === chosen ? ' · current' : ''}`,
    detail: `${m.maxInputTokens} input tokens`,
    model: m,
  }));
  const pick = await vscode.window.showQuickPick(items, { title: 'Greenloop: model for Fix until green', placeHolder: 'Choose a chat model' });
  if (!pick) return undefined;
  await memento.update(CHOSEN_MODEL, pick.model.id);
  return pick.model;
}
