// Builds the run's Actor from the model settings: a VS Code chat model, or an OpenAI-compatible endpoint.
import type * as vscode from 'vscode';
import type { Actor } from '../core/ports';
import { OpenAIActor } from '../actors/openaiActor';
import type { ModelSettings } from './config';
import { LmActor } from './lmActor';
import { resolveModel } from './modelPicker';
import { readApiKey } from './secrets';

export async function createActor(model: ModelSettings, memento: vscode.Memento, secrets: vscode.SecretStorage): Promise<Actor> {
  if (model.provider === 'openai-compatible') {
    const apiKey = await readApiKey(secrets);
    return new OpenAIActor({ baseUrl: model.baseUrl, model: model.name, apiKey: apiKey || undefined, stream: true, requestTimeoutMs: model.requestTimeoutS * 1000 });
  }
  return new LmActor(await resolveModel(memento));
}
