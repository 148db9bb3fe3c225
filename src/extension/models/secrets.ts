// The OpenAI-compatible API key lives only in SecretStorage: never in settings, logs or history.
import * as vscode from 'vscode';

export const API_KEY_SECRET = 'greenloop.apiKey';

export function readApiKey(secrets: vscode.SecretStorage): Thenable<string | undefined> {
  return secrets.get(API_KEY_SECRET);
}

/** Asks for the key (hidden input); an empty answer removes it. Returns what happened, for a message. */
export async function promptForApiKey(secrets: vscode.SecretStorage): Promise<'stored' | 'removed' | 'unchanged'> {
  const value = await vscode.window.showInputBox({
    title: 'Greenloop: API key for the OpenAI-compatible endpoint',
    prompt: 'Stored in VS Code\'s secret storage, never in settings. Leave empty to remove the stored key.',
    password: true,
    ignoreFocusOut: true,
  });
  if (value === undefined) return 'unchanged';
  if (!value.trim()) {
    await secrets.delete(API_KEY_SECRET);
    return 'removed';
  }
  await secrets.store(API_KEY_SECRET, value.trim());
  return 'stored';
}
