// Builds the run's Actor from the model settings: a VS Code chat model, an OpenAI-compatible endpoint, or an agent CLI.
import type * as vscode from 'vscode';
import type { Actor } from '../../ports/actor';
import type { AgentKnobNames } from '../../actors/agentActorOptions';
import type { ExtensionSettings } from '../config';
import { SettingsError } from '../config';
import { LmActor } from './lmActor';
import { resolveModel } from './modelPicker';
import { runtime } from '../loadRuntime';

export const SETTINGS_AGENT_KNOBS: AgentKnobNames = {
  preset: 'greenloop.agent.preset',
  command: 'greenloop.agent.command',
  upstream: 'greenloop.agent.upstream',
  timeout: 'greenloop.agent.timeoutSeconds',
};

export interface RunActor {
  actor: Actor;
  /** What the person should know about how the actor is bounded (shown like the run's warnings). */
  warnings: string[];
}

/**
 * `apiKey`: the key from SecretStorage, read once per run by the caller (which also masks it everywhere); an agent's
 * gateway sends it upstream and the agent gets a placeholder. `withheld`: variables no child process inherits.
 */
export async function createActor(
  settings: Pick<ExtensionSettings, 'model' | 'agent'>, memento: vscode.Memento, apiKey: string | undefined,
  where: { cwd: string; withheld: readonly string[] },
): Promise<RunActor> {
  const { model, agent } = settings;
  if (model.provider === 'agent') {
    let plan;
    try {
      plan = runtime().agentActorOptions(
        { preset: agent.preset, command: agent.command, upstream: agent.upstream, model: model.name || undefined, requestsPerAttempt: agent.requestsPerAttempt, timeoutS: agent.timeoutS, key: apiKey ? { value: apiKey } : undefined, expectsBound: true },
        { cwd: where.cwd, env: process.env, withheld: where.withheld, knobs: SETTINGS_AGENT_KNOBS },
      );
    } catch (err) {
      throw new SettingsError((err as Error).message);
    }
    return { actor: new (runtime().CommandActor)(plan.options), warnings: plan.warnings };
  }
  if (model.provider === 'openai-compatible') {
    return { actor: new (runtime().OpenAIActor)({ baseUrl: model.baseUrl, model: model.name, apiKey, stream: true, requestTimeoutMs: model.requestTimeoutS * 1000 }), warnings: [] };
  }
  return { actor: new LmActor(await resolveModel(memento)), warnings: [] };
}
