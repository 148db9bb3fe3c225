// The same scenario as qwenAlone.ts, but the way Greenloop runs it: `greenloop fix --agent qwen`, every model request
// of the agent through Greenloop's gateway to the scripted model. Returns the report next to what the model server
// itself counted, so the two can be compared.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CALC3_FIXTURE } from '../../test/support/agentScenarios';
import type { Scenario } from '../../test/support/agentSteps';
import { countFailingTests, installQwen, makeAgentWorkspace, makeFixtureWorkspace } from '../../test/support/qwenAgent';
import { startScriptedAgentModel } from '../../test/support/scriptedAgentModel';
import { startScriptedAnthropicModel } from '../../test/support/scriptedAnthropicModel';
import { claudeEnv, installClaude } from '../../test/support/claudeAgent';
import { codexEnv, installCodex, makeCodexHome } from '../../test/support/codexAgent';
import { startScriptedResponsesModel } from '../../test/support/scriptedResponsesModel';
import { REAL_AGENT_RUN_MS } from '../../test/support/agentTimeouts';

const ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(ROOT, 'dist', 'cli.js');

export interface WithGreenloopOptions {
  /** Which real agent CLI: qwen (Chat Completions), claude (Anthropic Messages) or codex (Responses). Default qwen. */
  agent?: 'qwen' | 'claude' | 'codex';
  /** The agent's bin; default: installed (or found) by scripts/agents/install-<agent>.sh. */
  bin?: string;
  qwenBin?: string;
  fixture?: string;
  /** More `greenloop fix` flags. */
  flags?: string[];
  /**
   * Run the agent as a plain command (`--actor command --actor-cmd "qwen --yolo"`), as a person who names no preset
   * does: no preset flags (qwen's own --max-session-turns) behind the gateway. qwen only.
   */
  plainCommand?: boolean;
  timeoutMs?: number;
}

export interface WithGreenloopResult {
  scenario: string;
  exitCode: number | null;
  report: any;
  /** Requests and tokens as the model server counted them (main and side requests). */
  served: { requests: number; prompt: number; completion: number };
  failingAtStart: number;
  failingAtEnd: number;
  /** The fixture's test files are byte for byte what they were. */
  testsIntact: boolean;
  durationMs: number;
  stderr: string;
}

export async function runWithGreenloop(scenario: Scenario, opts: WithGreenloopOptions = {}): Promise<WithGreenloopResult> {
  if (!fs.existsSync(CLI)) throw new Error('dist/cli.js is missing; run `npm run build` first.');
  const agent = opts.agent ?? 'qwen';
  const bin = opts.bin ?? opts.qwenBin ?? (agent === 'claude' ? await installClaude() : agent === 'codex' ? await installCodex() : await installQwen());
  const fixture = path.join(ROOT, opts.fixture ?? CALC3_FIXTURE);
  const ws = agent === 'qwen' ? makeAgentWorkspace(fixture) : makeFixtureWorkspace(fixture);
  // Codex refuses its helper links under /tmp: its HOME lives in the agents cache.
  const codexHome = agent === 'codex' ? makeCodexHome() : null;
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-agent-state-'));
  const model = agent === 'claude'
    ? await startScriptedAnthropicModel({ scenario, workspace: ws.workspace })
    : agent === 'codex'
      ? await startScriptedResponsesModel({ scenario, workspace: ws.workspace })
      : await startScriptedAgentModel({ scenario, workspace: ws.workspace });
  const served = () => ('inputTokens' in model
    ? { requests: model.requests.length, prompt: model.inputTokens, completion: model.outputTokens }
    : { requests: model.requests.length, prompt: model.promptTokens, completion: model.completionTokens });
  const testsBefore = testFiles(ws.workspace);
  const failingAtStart = await countFailingTests(ws.workspace);
  const env: NodeJS.ProcessEnv = {};
  if (agent === 'claude') {
    Object.assign(env, claudeEnv(ws.home, model.url));
  } else if (agent === 'codex') {
    Object.assign(env, codexEnv(codexHome!.home));
  } else {
    for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|OPENAI_|DASHSCOPE_|QWEN_)/i.test(k)) env[k] = v;
    Object.assign(env, { HOME: ws.home, OPENAI_API_KEY: 'test', QWEN_CODE_SUPPRESS_YOLO_WARNING: '1', npm_config_update_notifier: 'false' });
    // The preset sets the model's variable from --model; a plain command finds it in its own environment.
    if (opts.plainCommand) env.OPENAI_MODEL = 'scripted';
  }
  if (opts.plainCommand && agent !== 'qwen') throw new Error('plainCommand runs qwen only.');
  const actorFlags = opts.plainCommand ? ['--actor', 'command', '--actor-cmd', 'qwen --yolo'] : ['--agent', agent];
  env.PATH = `${path.dirname(bin)}${path.delimiter}${process.env.PATH ?? ''}`;
  const started = Date.now();
  try {
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [
        CLI, 'fix', '--cwd', ws.workspace, ...actorFlags, '--agent-upstream', model.url, ...(agent === 'claude' || opts.plainCommand ? [] : ['--model', 'scripted']),
        '--tsc', 'off', '--state-dir', stateDir, '--json', ...(opts.flags ?? []),
      ], { env, timeout: opts.timeoutMs ?? REAL_AGENT_RUN_MS, maxBuffer: 32 << 20 }, (err, out, errOut) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout: out, stderr: errOut });
      });
    });
    const testsNow = testFiles(ws.workspace);
    return {
      scenario: scenario.name,
      exitCode: code,
      report: stdout.trim() ? JSON.parse(stdout) : null,
      served: served(),
      failingAtStart,
      failingAtEnd: await countFailingTests(ws.workspace),
      testsIntact: testsNow === testsBefore,
      durationMs: Date.now() - started,
      stderr,
    };
  } finally {
    await model.close();
    fs.rmSync(ws.workspace, { recursive: true, force: true });
    fs.rmSync(ws.home, { recursive: true, force: true });
    codexHome?.remove();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}

/** The fixture's test files (its `test/` folder), name and content, for "left intact" (calc3's and the others'). */
function testFiles(workspace: string): string {
  const dir = path.join(workspace, 'test');
  return fs.readdirSync(dir).sort().map((name) => `${name}\0${fs.readFileSync(path.join(dir, name), 'utf8')}`).join('\0');
}
