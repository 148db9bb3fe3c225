// How an agent CLI is set up as the run's actor, decided in one place for the CLI (flags) and the extension
// (settings): its command, the upstream its gateway forwards to, which key goes where, and what the person should
// be told about how it is bounded. Errors are one sentence; each surface names its own knobs in them.
import type { CommandActorOptions } from './commandActor';
import { AGENT_PRESETS, OPENAI_BASE_URL_VARS, presetNamed, upstreamFromEnv } from './agentPresets';

/** How a surface names the knobs a sentence tells the person to turn ("--agent-upstream URL", "greenloop.agent.upstream"). */
export interface AgentKnobNames {
  preset: string;
  command: string;
  upstream: string;
  timeout: string;
}

export const CLI_AGENT_KNOBS: AgentKnobNames = {
  preset: '--agent',
  command: '--actor-cmd "<command>"',
  upstream: '--agent-upstream URL',
  timeout: '--agent-timeout-s',
};

export interface AgentChoice {
  /** A preset name (qwen, codex, …); absent: a plain command. */
  preset?: string;
  /** Overrides the preset's command. */
  command?: string;
  /** The agent's real model URL; absent: its OPENAI_BASE_URL-style variable in `env`. */
  upstream?: string;
  model?: string;
  requestsPerAttempt: number;
  timeoutS: number;
  /**
   * The model key as Greenloop holds it. Through the gateway it is the gateway's to send (the agent gets a
   * placeholder); without one, an agent is handed it back only in the variable it came from (`variable`).
   */
  key?: { value: string; variable?: string };
  /**
   * The person expects the agent's requests to be bounded (they set a cap, or chose an agent in VS Code). A plain
   * command given without that may be a script with no model at all: no warning about uncounted requests then.
   */
  expectsBound?: boolean;
}

export interface AgentActorPlan {
  options: CommandActorOptions;
  /** What the person should know about how the agent is bounded, one sentence each. */
  warnings: string[];
}

export function agentActorOptions(
  choice: AgentChoice,
  where: { cwd: string; env: NodeJS.ProcessEnv; withheld: readonly string[]; knobs: AgentKnobNames },
): AgentActorPlan {
  const { knobs } = where;
  const preset = choice.preset === undefined ? null : presetNamed(choice.preset);
  if (choice.preset !== undefined && !preset) {
    throw new Error(`Unknown agent "${choice.preset}"; use one of ${Object.keys(AGENT_PRESETS).join(', ')}, or a command of your own with ${knobs.command}.`);
  }
  const command = choice.command?.trim() || preset?.command({ model: choice.model, requestsPerAttempt: choice.requestsPerAttempt });
  if (!command) throw new Error(`An agent needs a command: set ${knobs.command} (it gets the prompt on stdin and in $GREENLOOP_PROMPT_FILE), or name a preset with ${knobs.preset}.`);
  const baseUrlVars = preset?.baseUrlVars ?? OPENAI_BASE_URL_VARS;
  const upstream = choice.upstream?.trim() || upstreamFromEnv(where.env, baseUrlVars) || preset?.defaultUpstream;
  if (upstream !== undefined && !/^https?:\/\/[^\s/]+/.test(upstream)) {
    throw new Error(`The agent's model URL must start with http:// or https:// (got "${upstream}"); set it with ${knobs.upstream}.`);
  }
  const env: NodeJS.ProcessEnv = {};
  if (preset?.modelVar && choice.model) env[preset.modelVar] = choice.model;
  const bounded = upstream !== undefined;
  const warnings: string[] = [];
  if (!bounded) {
    if (choice.key?.variable) env[choice.key.variable] = choice.key.value;
    if (preset || choice.expectsBound) warnings.push(`The agent's model requests are not counted or capped: name its model's URL with ${knobs.upstream} (or set ${baseUrlVars[0]}) so they go through Greenloop's gateway.`);
  }
  const keyVar = preset?.keyVar ?? choice.key?.variable ?? 'OPENAI_API_KEY';
  return {
    options: {
      command, cwd: where.cwd, timeoutMs: choice.timeoutS * 1000, env, withheldEnv: where.withheld,
      ...(bounded ? { gateway: { upstream: upstream!, protocol: preset?.protocol ?? 'openai-chat', apiKey: choice.key?.value, keyVar, baseUrlVars, requestsPerAttempt: choice.requestsPerAttempt } } : {}),
    },
    warnings,
  };
}
