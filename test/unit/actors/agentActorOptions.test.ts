// The one place that decides how an agent CLI runs (for the CLI's flags and the extension's settings alike).
import * as assert from 'assert';
import { agentActorOptions, CLI_AGENT_KNOBS } from '../../../src/actors/agentActorOptions';
import type { AgentChoice, AgentKnobNames } from '../../../src/actors/agentActorOptions';

const SETTINGS: AgentKnobNames = { preset: 'greenloop.agent.preset', command: 'greenloop.agent.command', upstream: 'greenloop.agent.upstream', timeout: 'greenloop.agent.timeoutSeconds' };

function plan(choice: Partial<AgentChoice>, env: NodeJS.ProcessEnv = {}, knobs = SETTINGS) {
  return agentActorOptions({ requestsPerAttempt: 12, timeoutS: 600, ...choice }, { cwd: '/ws', env, withheld: ['GREENLOOP_API_KEY'], knobs });
}

describe('agent actor options (shared by the CLI and the extension)', () => {
  it("runs the preset's command, with its own caps and the model, bounded by the per-attempt time", () => {
    const { options } = plan({ preset: 'qwen', model: 'qwen3-coder', requestsPerAttempt: 5, timeoutS: 90 }, { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' });
    assert.strictEqual(options.command, "qwen --yolo --max-session-turns 10 --model 'qwen3-coder'");
    assert.strictEqual(options.timeoutMs, 90_000);
    assert.strictEqual(options.cwd, '/ws');
    assert.deepStrictEqual(options.env, { OPENAI_MODEL: 'qwen3-coder' });
    assert.deepStrictEqual(options.withheldEnv, ['GREENLOOP_API_KEY']);
    assert.strictEqual(options.gateway?.requestsPerAttempt, 5);
  });

  it('a command of the person\'s own replaces the preset\'s', () => {
    const { options } = plan({ preset: 'aider', command: '  my-agent --yes ' }, { OPENAI_API_BASE: 'http://127.0.0.1:8080/v1' });
    assert.strictEqual(options.command, 'my-agent --yes');
    assert.strictEqual(options.gateway?.upstream, 'http://127.0.0.1:8080/v1', "aider's own variable names the upstream");
    assert.deepStrictEqual(options.gateway?.baseUrlVars, ['OPENAI_API_BASE', 'OPENAI_BASE_URL']);
  });

  it("takes the upstream from the agent's environment, and an explicit one over it", () => {
    const env = { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' };
    assert.strictEqual(plan({ preset: 'codex' }, env).options.gateway?.upstream, 'http://127.0.0.1:11434/v1');
    assert.strictEqual(plan({ preset: 'codex', upstream: 'https://api.example.com/v1' }, env).options.gateway?.upstream, 'https://api.example.com/v1');
  });

  it('hands the key to the gateway, never to the agent, when its requests go through the gateway', () => {
    const { options } = plan({ preset: 'qwen', upstream: 'http://127.0.0.1:9/v1', key: { value: 'sk-stored-in-vscode' } });
    assert.strictEqual(options.gateway?.apiKey, 'sk-stored-in-vscode');
    assert.strictEqual(options.gateway?.keyVar, 'OPENAI_API_KEY', 'the variable that gets the placeholder');
    assert.ok(!JSON.stringify(options.env).includes('sk-stored-in-vscode'));
  });

  it('a plain command without a preset gets the placeholder in OPENAI_API_KEY, or in the variable the key came from', () => {
    assert.strictEqual(plan({ command: 'my-agent', upstream: 'http://127.0.0.1:9/v1', key: { value: 'k-123456789' } }).options.gateway?.keyVar, 'OPENAI_API_KEY');
    assert.strictEqual(plan({ command: 'my-agent', upstream: 'http://127.0.0.1:9/v1', key: { value: 'k-123456789', variable: 'MY_KEY' } }).options.gateway?.keyVar, 'MY_KEY');
  });

  it('warns, naming the knob to turn, when no upstream is known: the requests are not counted or capped', () => {
    const viaSettings = plan({ preset: 'qwen' });
    assert.strictEqual(viaSettings.options.gateway, undefined);
    assert.deepStrictEqual(viaSettings.warnings, ["The agent's model requests are not counted or capped: name its model's URL with greenloop.agent.upstream (or set OPENAI_BASE_URL) so they go through Greenloop's gateway."]);
    assert.match(plan({ preset: 'qwen' }, {}, CLI_AGENT_KNOBS).warnings[0], /with --agent-upstream URL \(or set OPENAI_BASE_URL\)/);
    assert.deepStrictEqual(plan({ preset: 'qwen' }, { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }).warnings, []);
  });

  it('says nothing about uncounted requests for a plain command (maybe a script with no model) unless a bound was asked for', () => {
    assert.deepStrictEqual(plan({ command: 'my-script' }).warnings, []);
    assert.match(plan({ command: 'my-script', expectsBound: true }).warnings[0] ?? '', /not counted or capped/);
  });

  it('without a gateway, gives the key back only in the variable it came from', () => {
    assert.deepStrictEqual(plan({ command: 'a', key: { value: 'k-123456789', variable: 'MY_KEY' } }).options.env, { MY_KEY: 'k-123456789' });
    assert.deepStrictEqual(plan({ command: 'a', key: { value: 'k-123456789' } }).options.env, {}, 'a key from VS Code secret storage stays with Greenloop');
  });

  it('bounds claude through the gateway in its own protocol, by default in front of the Anthropic API', () => {
    const byDefault = plan({ preset: 'claude', key: { value: 'sk-ant-0123456789' } });
    assert.deepStrictEqual(byDefault.warnings, []);
    assert.strictEqual(byDefault.options.gateway?.upstream, 'https://api.anthropic.com');
    assert.strictEqual(byDefault.options.gateway?.protocol, 'anthropic-messages');
    assert.deepStrictEqual(byDefault.options.gateway?.baseUrlVars, ['ANTHROPIC_BASE_URL']);
    assert.strictEqual(byDefault.options.gateway?.keyVar, 'ANTHROPIC_API_KEY');
    assert.strictEqual(plan({ preset: 'claude' }, { ANTHROPIC_BASE_URL: 'http://127.0.0.1:4000' }).options.gateway?.upstream, 'http://127.0.0.1:4000');
  });

  it('refuses a bad upstream, an unknown preset and no command at all, each in one sentence', () => {
    assert.throws(() => plan({ preset: 'qwen' }, { OPENAI_BASE_URL: 'localhost:11434' }),
      { message: 'The agent\'s model URL must start with http:// or https:// (got "localhost:11434"); set it with greenloop.agent.upstream.' });
    assert.throws(() => plan({ preset: 'cursor' }), { message: 'Unknown agent "cursor"; use one of qwen, codex, opencode, aider, claude, or a command of your own with greenloop.agent.command.' });
    assert.throws(() => plan({}), { message: 'An agent needs a command: set greenloop.agent.command (it gets the prompt on stdin and in $GREENLOOP_PROMPT_FILE), or name a preset with greenloop.agent.preset.' });
  });
});
