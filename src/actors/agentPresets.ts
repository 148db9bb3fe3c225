// The agent CLIs people run, each as Greenloop drives it: how it takes the prompt, which variables carry its model's
// base URL, key and model (so it can be pointed at the gateway), and its own bounding flags as a second fence
// behind the gateway's. The command always gets the prompt on stdin and in $GREENLOOP_PROMPT_FILE.

export type AgentPresetName = 'qwen' | 'codex' | 'opencode' | 'aider' | 'claude';

export interface AgentPreset {
  name: AgentPresetName;
  /** The program, for "not found" messages and the install hint. */
  program: string;
  install: string;
  /** The shell command; the prompt is on stdin (and in $GREENLOOP_PROMPT_FILE for agents that want a file or an argument). */
  command(o: { model?: string; requestsPerAttempt: number }): string;
  /** Variables that name the model's base URL, the first one set being the upstream; the agent gets the gateway in all. */
  baseUrlVars: readonly string[];
  keyVar: string;
  modelVar?: string;
  /** The protocol the agent speaks to its model (the gateway speaks both). */
  protocol: 'openai-chat' | 'anthropic-messages';
  /** Where the agent's model is when its environment names none (its vendor's API). */
  defaultUpstream?: string;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export const AGENT_PRESETS: Record<AgentPresetName, AgentPreset> = {
  qwen: {
    name: 'qwen', program: 'qwen', install: 'npm install -g @qwen-code/qwen-code',
    // Headless when stdin is not a terminal; --max-session-turns is qwen's own cap, left above the gateway's.
    command: ({ model, requestsPerAttempt }) => `qwen --yolo --max-session-turns ${requestsPerAttempt * 2}${model ? ` --model ${quote(model)}` : ''}`,
    baseUrlVars: ['OPENAI_BASE_URL', 'OPENAI_API_BASE'], keyVar: 'OPENAI_API_KEY', modelVar: 'OPENAI_MODEL', protocol: 'openai-chat',
  },
  codex: {
    name: 'codex', program: 'codex', install: 'npm install -g @openai/codex',
    // A provider of its own, pointed at $OPENAI_BASE_URL: Codex speaks only the Responses API ("-" reads the prompt
    // from stdin). No sandbox of its own (bubblewrap/landlock is missing in many containers, and then no command
    // runs): like qwen's --yolo, Greenloop's snapshots, protected paths and outside watch are the fence.
    command: ({ model }) => `codex exec --sandbox danger-full-access --skip-git-repo-check -c model_provider=greenloop -c 'model_providers.greenloop={name="greenloop",base_url="'"$OPENAI_BASE_URL"'",env_key="OPENAI_API_KEY",wire_api="responses"}'${model ? ` -m ${quote(model)}` : ''} -`,
    baseUrlVars: ['OPENAI_BASE_URL'], keyVar: 'OPENAI_API_KEY', protocol: 'openai-chat',
  },
  opencode: {
    name: 'opencode', program: 'opencode', install: 'npm install -g opencode-ai',
    // An OpenAI-compatible provider set up in the inline config, pointed at $OPENAI_BASE_URL.
    command: ({ model }) => {
      const m = model ?? 'default';
      const config = `{"provider":{"greenloop":{"npm":"@ai-sdk/openai-compatible","options":{"baseURL":"'"$OPENAI_BASE_URL"'","apiKey":"{env:OPENAI_API_KEY}"},"models":{${JSON.stringify(m)}:{}}}}}`;
      return `OPENCODE_CONFIG_CONTENT='${config}' opencode run --model ${quote(`greenloop/${m}`)} "$(cat "$GREENLOOP_PROMPT_FILE")"`;
    },
    baseUrlVars: ['OPENAI_BASE_URL'], keyVar: 'OPENAI_API_KEY', protocol: 'openai-chat',
  },
  aider: {
    name: 'aider', program: 'aider', install: 'python -m pip install aider-install && aider-install',
    command: ({ model }) => `aider --yes-always --no-auto-commits --no-check-update --no-show-model-warnings --no-pretty --message-file "$GREENLOOP_PROMPT_FILE"${model ? ` --model ${quote(`openai/${model}`)}` : ''}`,
    baseUrlVars: ['OPENAI_API_BASE', 'OPENAI_BASE_URL'], keyVar: 'OPENAI_API_KEY', protocol: 'openai-chat',
  },
  claude: {
    name: 'claude', program: 'claude', install: 'npm install -g @anthropic-ai/claude-code',
    // In -p mode every Bash call waits for an approval nobody gives: the agent could never run the tests.
    command: ({ model, requestsPerAttempt }) => `claude -p --permission-mode acceptEdits --allowedTools Bash --max-turns ${requestsPerAttempt * 2}${model ? ` --model ${quote(model)}` : ''}`,
    baseUrlVars: ['ANTHROPIC_BASE_URL'], keyVar: 'ANTHROPIC_API_KEY', modelVar: 'ANTHROPIC_MODEL', protocol: 'anthropic-messages',
    defaultUpstream: 'https://api.anthropic.com',
  },
};

export function presetNamed(name: string): AgentPreset | null {
  return Object.prototype.hasOwnProperty.call(AGENT_PRESETS, name) ? AGENT_PRESETS[name as AgentPresetName] : null;
}

/** Where an agent that is no preset (a plain command) finds its OpenAI-compatible model. */
export const OPENAI_BASE_URL_VARS = ['OPENAI_BASE_URL', 'OPENAI_API_BASE'] as const;

/** The upstream an agent's own environment names: the first of its base-URL variables that is set. */
export function upstreamFromEnv(env: NodeJS.ProcessEnv, vars: readonly string[] = OPENAI_BASE_URL_VARS): string | undefined {
  for (const name of vars) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}
