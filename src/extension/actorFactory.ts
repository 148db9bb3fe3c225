// Builds the run's Actor from the model settings: a VS Code chat model, or an OpenAI-compatible endpoint.
import type * as vscode from 'vscode';
import type { Actor } from '../core/ports';
import { OpenAIActor } from '../actors/openaiActor';
import type { ModelSettings } from './config';
import { LmActor } from './lmActor';
import { resolveModel } from './modelPicker';

/** `apiKey`: the key from SecretStorage, read once per run by the caller (which also masks it everywhere). */
export async function createActor(model: ModelSettings, memento: vscode.Memento, apiKey: string | undefined): Promise<Actor> {
  if (model.provider === 'openai-compatible') {
    return new OpenAIActor({ baseUrl: model.baseUrl, model: model.name, apiKey, stream: true, requestTimeoutMs: model.requestTimeoutS * 1000 });
  }
  return new LmActor(await resolveModel(memento));
}
