// An Actor that hands the prompt to a coding-agent CLI (qwen, aider, `claude -p`, a script) and lets it edit the
// workspace itself; the engine snapshots before and checks what changed after. With a model gateway the agent's
// every model request goes through Greenloop, which counts it and ends the attempt when its bound is reached.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ActorError } from '../ports/actor';
import type { Actor, ActorRequest, ActorResponse, AgentAttempt, WorkspaceState } from '../ports/actor';
import { abortError } from '../base/abort';
import { CommandCannotStart, runCommand } from '../base/process/runCommand';
import { estimateTokens } from '../base/estimateTokens';
import { normalizeMessage } from '../base/normalize';
import { createHash } from 'node:crypto';
import { childEnvironment } from '../base/secretEnv';
import { ModelGateway, type GatewayProtocolName } from './gateway/modelGateway';
import type { AttemptLedger, GatewayStop } from './gateway/attemptMeter';

export interface AgentGatewayOptions {
  /** The real model the gateway forwards to. */
  upstream: string;
  /** What the agent speaks to its model; default OpenAI Chat Completions. */
  protocol?: GatewayProtocolName;
  /** A key the gateway sends upstream itself; the agent then gets a placeholder in `keyVar`. */
  apiKey?: string;
  keyVar?: string;
  /** Variables that point the agent at its model: each is set to the gateway's URL. */
  baseUrlVars: readonly string[];
  requestsPerAttempt: number;
}

export interface CommandActorOptions {
  /** Run through the shell, like a line typed in a terminal. */
  command: string;
  /** Defaults to the request's workspace folder. */
  cwd?: string;
  /** The agent's own time limit per attempt; never longer than what the run's time budget has left. */
  timeoutMs: number;
  /** The agent's own variables (its key, if it is given one), added after `withheldEnv` is taken out. */
  env?: NodeJS.ProcessEnv;
  /** Variables of this process the agent does not inherit (the model key's). */
  withheldEnv?: readonly string[];
  /** Route the agent's model requests through a counting, capping gateway. */
  gateway?: AgentGatewayOptions;
  /** Masks secrets in the output kept as the attempt's transcript. */
  redact?: (text: string) => string;
}

const TAIL_LINES = 15;
const TAIL_CHARS = 2000;
/** The agent's output kept per attempt for the history (its tail). */
const TRANSCRIPT_CHARS = 8000;
/** Request log entries kept per attempt. */
const LOG_ENTRIES = 60;

/** The shell's stdin becomes the prompt file, so compound commands and agents that read to EOF all see it. */
function withPromptOnStdin(command: string): string {
  if (process.platform === 'win32') return `(${command}) < "%GREENLOOP_PROMPT_FILE%"`;
  return `exec < "$GREENLOOP_PROMPT_FILE"\n${command}`;
}

function lastLines(output: string): string {
  const lines = output.replace(/\s+$/, '').split(/\r?\n/).slice(-TAIL_LINES).join('\n');
  return lines.length > TAIL_CHARS ? `…${lines.slice(-TAIL_CHARS)}` : lines;
}

function programName(command: string): string {
  return command.trim().split(/\s+/)[0] ?? command;
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

const GATEWAY_STOP_TEXT: Partial<Record<GatewayStop, string>> = {
  'token-budget': "The run's token budget ran out while the agent worked; Greenloop stopped it and undid its unfinished changes.",
  'time-budget': "The run's time budget ran out while the agent worked; Greenloop stopped it and undid its unfinished changes.",
};

export class CommandActor implements Actor {
  readonly label: string;
  readonly editsWorkspace: boolean;
  /** One gateway per lane: lane 0 for the one agent of an attempt, 1…N for several side by side, each metered alone. */
  private readonly gateways = new Map<number, Promise<ModelGateway>>();
  private workspace: WorkspaceState | undefined;

  constructor(private readonly opts: CommandActorOptions) {
    if (!opts.command.trim()) throw new Error('No agent command was given; pass one with --actor-cmd, e.g. --actor-cmd "aider --yes-always".');
    this.label = `command:${opts.command}${opts.gateway ? ` (through Greenloop's gateway to ${opts.gateway.upstream})` : ''}`;
    this.editsWorkspace = true;
  }

  /** The gateway reads the workspace's state as each of the agent's test runs comes back. */
  watchWorkspace(state: WorkspaceState): void {
    this.workspace = state;
  }

  /** Stops the gateway; the actor starts it again if asked to propose once more. */
  async dispose(): Promise<void> {
    const all = [...this.gateways.values()];
    this.gateways.clear();
    await Promise.all(all.map(async (g) => (await g.catch(() => null))?.close()));
  }

  async propose(req: ActorRequest): Promise<ActorResponse> {
    if (req.signal.aborted) throw abortError(req.signal);
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'greenloop-prompt-'));
    const promptFile = path.join(dir, 'prompt.md');
    const gateway = await this.startGateway(req.copy?.lane ?? 0);
    // An agent of several works in its own copy of the workspace (`--candidates`): that copy is its folder.
    const cwd = req.copy ? req.cwd : this.opts.cwd ?? req.cwd;
    const stopped = new AbortController();
    let stoppedBy: GatewayStop | null = null;
    gateway?.openAttempt(
      {
        maxRequests: this.opts.gateway!.requestsPerAttempt, cwd, workspace: req.copy?.state ?? this.workspace,
        tokensLeft: req.tokensLeft, deadlineAt: req.timeLeftMs === undefined ? undefined : Date.now() + req.timeLeftMs,
      },
      (why) => {
        stoppedBy = why;
        stopped.abort();
      },
    );
    // The agent's own limit, never past the run's: the deadline would stop it anyway, but as the budget.
    const timeoutMs = Math.max(1, Math.min(this.opts.timeoutMs, req.timeLeftMs ?? Infinity));
    try {
      // An agent CLI has no separate system channel: the rules (protected tests, smallest change) lead the prompt.
      const text = req.system ? `${req.system}\n\n${req.prompt}` : req.prompt;
      await fs.promises.writeFile(promptFile, text, 'utf8');
      const result = await runCommand({
        command: withPromptOnStdin(this.opts.command),
        cwd,
        env: {
          ...childEnvironment(process.env, this.opts.withheldEnv),
          ...this.opts.env,
          ...(gateway ? this.pointedAt(gateway) : {}),
          GREENLOOP_PROMPT_FILE: promptFile,
          GREENLOOP_ITERATION: String(req.iteration),
        },
        timeoutMs: req.timeLeftMs !== undefined && req.timeLeftMs < this.opts.timeoutMs ? undefined : timeoutMs,
        signal: AbortSignal.any([req.signal, stopped.signal]),
      }).catch((err: unknown) => {
        if (err instanceof CommandCannotStart) throw new ActorError(err.message, 'fatal');
        throw err;
      });
      const ledger = gateway?.closeAttempt() ?? null;
      const usage = ledger
        ? { prompt: ledger.tokens.prompt, completion: ledger.tokens.completion, estimated: ledger.tokens.estimated || undefined }
        : { prompt: estimateTokens(text), completion: estimateTokens(result.output), estimated: true };
      const agent = ledger ? this.attemptOf(ledger, result.exitCode, result.output) : undefined;
      const spent = agent ? { usage, agent } : undefined;
      if (req.signal.aborted) throw abortError(req.signal);
      if (result.cancelled) {
        const why: GatewayStop | null = stoppedBy;
        if (why === 'token-budget' || why === 'time-budget') {
          throw new ActorError(GATEWAY_STOP_TEXT[why]!, 'fatal', undefined, 'deterministic', spent, why === 'token-budget' ? 'budget-tokens' : 'budget-time');
        }
        throw new ActorError(`The agent kept asking its model after Greenloop answered that its attempt was over (${agent?.gatewayAnswers ?? 0} times), so it was stopped; it does not end its turn on a final answer.`, 'fatal', undefined, 'deterministic', spent);
      }
      if (result.notFound) {
        throw new ActorError(`Agent command not found: ${programName(this.opts.command)}; install it or change the agent command (--actor-cmd).`, 'fatal', undefined, 'deterministic', spent);
      }
      if (result.timedOut) {
        throw new ActorError(`The agent ran longer than its ${seconds(timeoutMs)} limit (--agent-timeout-s) and was stopped; its unfinished changes were undone.`, 'transient', undefined, 'timeout', spent);
      }
      if (result.exitCode !== 0) {
        const how = result.exitCode === null ? `was killed by ${result.signal ?? 'a signal'}` : `exited with code ${result.exitCode}`;
        const tail = lastLines(result.output);
        const failure = `The agent command ${how}${tail ? `; its last output:\n${tail}` : ' and printed nothing.'}`;
        // The same exit with the same last words (timings, pids and temp paths aside) is the same failure.
        const signature = createHash('sha256').update(`${how}\0${normalizeMessage(tail, { cwd })}`).digest('hex');
        return { kind: 'workspace-edited', transcript: result.output, usage, failure: { text: failure, signature }, agent };
      }
      return { kind: 'workspace-edited', transcript: result.output, usage, agent };
    } finally {
      gateway?.closeAttempt();
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }

  private async startGateway(lane: number): Promise<ModelGateway | null> {
    const g = this.opts.gateway;
    if (!g) return null;
    let started = this.gateways.get(lane);
    if (!started) {
      started = ModelGateway.start({ upstream: g.upstream, apiKey: g.apiKey, protocol: g.protocol });
      this.gateways.set(lane, started);
    }
    try {
      return await started;
    } catch (err) {
      this.gateways.delete(lane);
      throw new ActorError(`Greenloop's model gateway could not start: ${(err as Error).message}`, 'fatal');
    }
  }

  /** The agent's variables pointing at the gateway, and a placeholder key when the gateway holds the real one. */
  private pointedAt(gateway: ModelGateway): NodeJS.ProcessEnv {
    const g = this.opts.gateway!;
    const env: NodeJS.ProcessEnv = {};
    for (const name of g.baseUrlVars) env[name] = gateway.url;
    if (g.apiKey && g.keyVar) env[g.keyVar] = 'greenloop-gateway-holds-the-key';
    return env;
  }

  private attemptOf(ledger: AttemptLedger, exitCode: number | null, output: string): AgentAttempt {
    const redact = this.opts.redact ?? ((t: string) => t);
    const tail = output.length > TRANSCRIPT_CHARS ? `…${output.slice(-TRANSCRIPT_CHARS)}` : output;
    return {
      requests: ledger.forwarded,
      gatewayAnswers: ledger.requests - ledger.forwarded,
      stoppedBy: ledger.stoppedBy,
      exitCode,
      lastMessage: redact(ledger.lastText).slice(0, 2000),
      output: redact(tail),
      log: ledger.log.slice(-LOG_ENTRIES).map(({ n, answeredBy, status, promptTokens, completionTokens, calls, answer }) => ({
        n, answeredBy, status, promptTokens, completionTokens, calls, answer: redact(answer),
      })),
      exactTokens: !ledger.tokens.estimated,
      ...(ledger.repeatedCall ? { repeatedCall: redact(ledger.repeatedCall) } : {}),
      changingCalls: ledger.changingCalls.map(({ key, call }) => ({ key, call: redact(call) })),
    };
  }
}
