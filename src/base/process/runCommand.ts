// Runs one shell command the way a person would in a terminal, with a deadline, a cancel button and a
// memory bound, and reports what happened in plain fields.
import { spawn } from 'child_process';
import type { ChildProcess } from 'child_process';
import * as fs from 'fs';
import { StringDecoder } from 'string_decoder';
import { BoundedBuffer, DEFAULT_HEAD_BYTES, DEFAULT_TAIL_BYTES } from './boundedBuffer';
import { killTree, signalGroup } from './killTree';
import { killMarked, newRunMark } from './runMark';
import type { RunMark } from './runMark';

/**
 * The command could not be started at all (its working directory is missing): one sentence for a person. The verifier
 * tells it as a VerifyError, an agent's actor as a fatal ActorError.
 */
export class CommandCannotStart extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandCannotStart';
  }
}

export interface RunOptions {
  command: string;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  signal?: AbortSignal;
  headBytes?: number;
  tailBytes?: number;
  /** Output as it arrives (stdout and stderr interleaved), for a live terminal. */
  onData?: (chunk: string) => void;
  /** Time between SIGTERM and SIGKILL when the command is stopped. */
  killGraceMs?: number;
}

export interface RunResult {
  output: string;
  droppedBytes: number;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
  /** The shell could not find the command (exit 127 / 9009 with its "not found" message). */
  notFound: boolean;
}

/** After the shell exits, how long to wait for pipes held open by background processes. */
const DRAIN_MS = 300;
const NOT_FOUND_TEXT = /not found|is not recognized as an internal or external command/i;

export async function runCommand(opts: RunOptions): Promise<RunResult> {
  await assertDirectory(opts.cwd);
  if (opts.signal?.aborted) {
    return { output: '', droppedBytes: 0, exitCode: null, signal: null, timedOut: false, cancelled: true, durationMs: 0, notFound: false };
  }
  const buffer = new BoundedBuffer(opts.headBytes ?? DEFAULT_HEAD_BYTES, opts.tailBytes ?? DEFAULT_TAIL_BYTES);
  const started = performance.now();
  const mark = newRunMark();
  const child = spawnShell(opts, mark);

  let timedOut = false;
  let cancelled = false;
  let killing: Promise<void> | null = null;
  const stop = (why: 'timeout' | 'cancel'): void => {
    if (killing || child.pid === undefined) return;
    if (why === 'timeout') timedOut = true;
    else cancelled = true;
    killing = killTree(child.pid, { graceMs: opts.killGraceMs, mark });
  };
  const timer = opts.timeoutMs && opts.timeoutMs > 0 ? setTimeout(() => stop('timeout'), opts.timeoutMs) : null;
  const onAbort = (): void => stop('cancel');
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  const streams = [child.stdout, child.stderr].filter((s): s is NonNullable<typeof s> => s !== null);
  const closed = streams.map((stream) => {
    // One decoder per stream so a character split across two chunks is never shown as two broken halves.
    const decoder = new StringDecoder('utf8');
    stream.on('data', (chunk: Buffer) => {
      buffer.push(chunk);
      if (opts.onData) {
        const text = decoder.write(chunk);
        if (text) opts.onData(text);
      }
    });
    return new Promise<void>((resolve) => {
      stream.once('close', () => {
        const rest = decoder.end();
        if (rest && opts.onData) opts.onData(rest);
        resolve();
      });
    });
  });

  try {
    const exit = await waitForExit(child);
    const durationMs = Math.round(performance.now() - started);
    if (timer) clearTimeout(timer);
    if (exit.spawnError) {
      return {
        output: exit.spawnError, droppedBytes: 0, exitCode: null, signal: null,
        timedOut: false, cancelled: false, durationMs, notFound: true,
      };
    }
    // A background process that inherited our pipe keeps it open; the command itself is over.
    const drained = await Promise.race([Promise.all(closed).then(() => true), sleep(DRAIN_MS).then(() => false)]);
    if (!drained) for (const s of streams) s.destroy();
    if (killing) await killing;
    // Leftovers of a finished run (a server the tests forgot to stop, a daemon that setsid'd away) would pile up
    // across iterations and hold ports and files the next run needs: the command is over, so is everything it started.
    else if (child.pid !== undefined && process.platform !== 'win32') signalGroup(child.pid, 'SIGKILL');
    await killMarked(mark);

    const { text, droppedBytes } = buffer.read();
    const notFound = !timedOut && !cancelled && (exit.code === 127 || exit.code === 9009) && NOT_FOUND_TEXT.test(text);
    return { output: text, droppedBytes, exitCode: exit.code, signal: exit.signal, timedOut, cancelled, durationMs, notFound };
  } finally {
    if (timer) clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

function spawnShell(opts: RunOptions, mark: RunMark): ChildProcess {
  const env = { ...(opts.env ?? process.env), ...mark.env };
  if (process.platform === 'win32') {
    // cmd has no portable "merge stderr into stdout for the whole line"; the two pipes are merged on arrival.
    return spawn(opts.command, { cwd: opts.cwd, env, shell: true, windowsHide: true, stdio: ['ignore', 'pipe', 'pipe'] });
  }
  // One pipe for both streams keeps the exact order a person sees in a terminal; two pipes would race.
  // Detached: the shell leads its own process group, so the whole group can be signalled at once.
  return spawn('/bin/sh', ['-c', `exec 2>&1\n${opts.command}`], {
    cwd: opts.cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
  });
}

interface ExitInfo {
  code: number | null;
  signal: string | null;
  spawnError?: string;
}

function waitForExit(child: ChildProcess): Promise<ExitInfo> {
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (err: NodeJS.ErrnoException) => {
      // Only spawn failures arrive here before 'exit' (a missing shell); later errors are about kill().
      if (child.pid === undefined) {
        resolve({ code: null, signal: null, spawnError: `Could not start a shell to run the command (${err.code ?? err.message}).` });
      }
    });
  });
}

async function assertDirectory(cwd: string): Promise<void> {
  let isDir = false;
  try {
    isDir = (await fs.promises.stat(cwd)).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) {
    throw new CommandCannotStart(`The working directory ${cwd} does not exist or is not a folder; check the --cwd option or the opened workspace.`);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
