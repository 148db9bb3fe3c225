// Turns `greenloop fix` flags into an Actor (the loop's budgets: loopConfigFlags.ts), with one-sentence errors for bad input.
import type { Actor } from '../ports/actor';
import { OpenAIActor } from '../actors/openaiActor';
import { CommandActor } from '../actors/commandActor';
import { AGENT_PRESETS, presetNamed } from '../actors/agentPresets';
import { agentActorOptions, CLI_AGENT_KNOBS } from '../actors/agentActorOptions';
import { DEFAULT_AGENT_SETTINGS } from '../shared/config';
import { parseNumberFlag, UsageError } from './usageError';
import type { FixFlagValues } from './loopConfigFlags';

export interface ModelKey {
  /** The variable named by --api-key-env. */
  variable?: string;
  key?: string;
}

/** The model key named by --api-key-env; a named variable that is not set is a setup mistake. */
export function modelKeyFromFlags(v: FixFlagValues): ModelKey {
  const variable = v['api-key-env'];
  if (!variable) return {};
  const key = process.env[variable];
  if (!key) throw new UsageError(`The environment variable ${variable} named by --api-key-env is not set.`);
  return { variable, key };
}

/**
 * `withheld`: variables the agent does not inherit. An agent named with --api-key-env gets that one variable back as
 * its own (or, through the gateway, a placeholder: the gateway sends the key); the test command never sees it.
 * `warnings` receives what the person should know about how the agent is bounded.
 */
export function actorFromFlags(v: FixFlagValues, cwd: string, model: ModelKey, withheld: readonly string[], warnings: string[] = []): Actor {
  const preset = v.agent === undefined ? null : presetNamed(v.agent);
  if (v.agent !== undefined && !preset) throw new UsageError(`Unknown agent "${v.agent}"; use one of ${Object.keys(AGENT_PRESETS).join(', ')}, or --actor command --actor-cmd CMD.`);
  const kind = v.actor ?? (preset || v['actor-cmd'] ? 'command' : v['base-url'] ? 'openai' : undefined);
  if (preset && kind !== 'command') throw new UsageError(`--agent ${preset.name} runs an agent CLI; it does not go with --actor ${kind}.`);
  if (kind === 'command') return agentActor(v, cwd, model, withheld, warnings);
  if (kind === 'openai') {
    const baseUrl = v['base-url'];
    if (!baseUrl) throw new UsageError('--actor openai needs --base-url (e.g. http://127.0.0.1:11434/v1).');
    if (!/^https?:\/\//.test(baseUrl)) throw new UsageError(`--base-url must start with http:// or https:// (got "${baseUrl}").`);
    if (!v.model) throw new UsageError('--actor openai needs --model NAME.');
    const requestTimeoutS = parseNumberFlag('request-timeout-s', v['request-timeout-s'], { min: 1 });
    return new OpenAIActor({ baseUrl, model: v.model, apiKey: model.key, stream: !v['no-stream'], requestTimeoutMs: requestTimeoutS === undefined ? undefined : requestTimeoutS * 1000 });
  }
  if (kind === undefined) throw new UsageError('Choose a model: --actor openai --base-url URL --model NAME, --agent qwen|codex|opencode|aider|claude, or --actor command --actor-cmd CMD.');
  throw new UsageError(`Unknown actor "${kind}"; use openai or command.`);
}

function agentActor(v: FixFlagValues, cwd: string, model: ModelKey, withheld: readonly string[], warnings: string[]): Actor {
  const requestsPerAttempt = parseNumberFlag('agent-requests-per-attempt', v['agent-requests-per-attempt'], { min: 1, integer: true }) ?? DEFAULT_AGENT_SETTINGS.requestsPerAttempt;
  const timeoutS = parseNumberFlag('agent-timeout-s', v['agent-timeout-s'], { min: 1 }) ?? DEFAULT_AGENT_SETTINGS.timeoutS;
  if (v.agent === undefined && !v['actor-cmd']) throw new UsageError('--actor command needs --actor-cmd "<command>" (it gets the prompt on stdin and in $GREENLOOP_PROMPT_FILE), or name a preset with --agent.');
  try {
    const plan = agentActorOptions(
      { preset: v.agent, command: v['actor-cmd'], upstream: v['agent-upstream'], model: v.model, requestsPerAttempt, timeoutS, key: model.key ? { value: model.key, variable: model.variable } : undefined, expectsBound: v['agent-requests-per-attempt'] !== undefined },
      { cwd, env: process.env, withheld, knobs: CLI_AGENT_KNOBS },
    );
    warnings.push(...plan.warnings);
    return new CommandActor(plan.options);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
