// An Actor that hands the prompt to a coding-agent CLI (aider, `claude -p`, a script) and lets it edit the
// workspace itself; the engine snapshots before and checks what changed after.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ActorError, VerifyError } from '../core/ports';
import type { Actor, ActorRequest, ActorResponse } from '../core/ports';
import { abortError } from '../core/retry';
import { runCommand } from '../verify/runCommand';
import { estimateTokens } from '../core/estimateTokens';
import { normalizeMessage } from '../verify/normalize';
import { createHash } from 'node:crypto';
import { GREENLOOP_KEY_VARIABLE, withoutVariables } from '../core/secretEnv';

export interface CommandActorOptions {
  /** Run through the shell, like a line typed in a terminal. */
  command: string;
  /** Defaults to the request's workspace folder. */
  cwd?: string;
  timeoutMs: number;
  /** The agent's own variables (its key, if it is given one), added after `withheldEnv` is taken out. */
  env?: NodeJS.ProcessEnv;
  /** Variables of this process the agent does not inherit (the model key's). */
  withheldEnv?: readonly string[];
}

const TAIL_LINES = 15;
const TAIL_CHARS = 2000;

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

export class CommandActor implements Actor {
  readonly label: string;
  readonly editsWorkspace: boolean;

  constructor(private readonly opts: CommandActorOptions) {
    if (!opts.command.trim()) throw new Error('No agent command was given; pass one with --actor-cmd, e.g. --actor-cmd "aider --yes-always".');
    this.label = `command:${opts.command}`;
    this.editsWorkspace = true;
  }

  async propose(req: ActorRequest): Promise<ActorResponse> {
    if (req.signal.aborted) throw abortError(req.signal);
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'greenloop-prompt-'));
    const promptFile = path.join(dir, 'prompt.md');
    try {
      // An agent CLI has no separate system channel: the rules (protected tests, smallest change) lead the prompt.
      const text = req.system ? `${req.system}\n\n${req.prompt}` : req.prompt;
      await fs.promises.writeFile(promptFile, text, 'utf8');
      const result = await runCommand({
        command: withPromptOnStdin(this.opts.command),
        cwd: this.opts.cwd ?? req.cwd,
        env: {
          ...withoutVariables(process.env, this.opts.withheldEnv ?? [GREENLOOP_KEY_VARIABLE]),
          ...this.opts.env,
          GREENLOOP_PROMPT_FILE: promptFile,
          GREENLOOP_ITERATION: String(req.iteration),
        },
        timeoutMs: this.opts.timeoutMs,
        signal: req.signal,
      }).catch((err: unknown) => {
        if (err instanceof VerifyError) throw new ActorError(err.message, 'fatal');
        throw err;
      });
      if (result.cancelled || req.signal.aborted) throw abortError(req.signal);
      if (result.notFound) {
        throw new ActorError(`Agent command not found: ${programName(this.opts.command)}; install it or change the agent command (--actor-cmd).`, 'fatal');
      }
      if (result.timedOut) {
        const limit = this.opts.timeoutMs >= 1000 ? `${Math.round(this.opts.timeoutMs / 1000)} s` : `${this.opts.timeoutMs} ms`;
        throw new ActorError(`The agent command ran longer than ${limit} and was stopped.`, 'transient');
      }
      const usage = { prompt: estimateTokens(text), completion: estimateTokens(result.output), estimated: true };
      if (result.exitCode !== 0) {
        const how = result.exitCode === null ? `was killed by ${result.signal ?? 'a signal'}` : `exited with code ${result.exitCode}`;
        const tail = lastLines(result.output);
        const failure = `The agent command ${how}${tail ? `; its last output:\n${tail}` : ' and printed nothing.'}`;
        // The same exit with the same last words (timings, pids and temp paths aside) is the same failure.
        const signature = createHash('sha256').update(`${how}\0${normalizeMessage(tail, { cwd: this.opts.cwd ?? req.cwd })}`).digest('hex');
        return { kind: 'workspace-edited', transcript: result.output, usage, failure: { text: failure, signature } };
      }
      return { kind: 'workspace-edited', transcript: result.output, usage };
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }
}
