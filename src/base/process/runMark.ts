// Finds every process one command started, however it got away from the tree: each command's environment carries
// a mark of its own, which every descendant inherits through fork and exec, setsid, double forks and nohup alike,
// and which Linux shows in /proc/<pid>/environ to the same user. A process that empties its environment
// (`env -i`, a sudo) loses the mark and is not found. Elsewhere (no /proc) the mark is set but never looked for.
import * as crypto from 'crypto';
import * as fs from 'fs';

export interface RunMark {
  /** Environment entries to add to the command's environment. */
  env: Record<string, string>;
  /** The bytes that identify the mark inside /proc/<pid>/environ. */
  needle: Buffer;
}

/** A variable of its own per command (not one shared name), so a nested run adds its mark and keeps its parent's. */
const PREFIX = 'GREENLOOP_RUN_';
const POLL_MS = 20;
const STOP_PASSES = 20;
const DEAD_WAIT_MS = 2000;

export function newRunMark(): RunMark {
  const name = `${PREFIX}${crypto.randomBytes(8).toString('hex')}`;
  return { env: { [name]: '1' }, needle: Buffer.from(`${name}=1\0`) };
}

/** Whether this platform can find marked processes (Linux, with /proc mounted). */
export function canFindMarked(): boolean {
  return process.platform === 'linux' && fs.existsSync('/proc/self/environ');
}

/** Pids of live processes carrying the mark (never this process); [] where the platform cannot tell. */
export function markedProcesses(mark: RunMark): number[] {
  if (!canFindMarked()) return [];
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const name of names) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    const pid = Number(name);
    if (pid !== process.pid && environHas(pid, mark.needle)) found.push(pid);
  }
  return found;
}

/** One buffer for every read: a scan touches hundreds of files, and readFileSync's allocations were a third of it. */
const chunk = Buffer.allocUnsafe(64 * 1024);

function environHas(pid: number, needle: Buffer): boolean {
  let fd: number;
  try {
    // Another user's process (EACCES) cannot be ours; a zombie's environ is empty, so it never matches.
    fd = fs.openSync(`/proc/${pid}/environ`, 'r');
  } catch {
    return false;
  }
  try {
    let carry = 0;
    for (;;) {
      const got = fs.readSync(fd, chunk, carry, chunk.length - carry, null);
      if (got === 0) return false;
      const end = carry + got;
      if (chunk.subarray(0, end).includes(needle)) return true;
      // The needle may straddle two reads: keep the tail that could be its start.
      carry = Math.min(needle.length - 1, end);
      chunk.copy(chunk, 0, end - carry, end);
    }
  } catch {
    return false;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Kills every process that carries the mark and resolves when none is left (or after a bounded wait). They are
 * stopped first and the table read again until it holds no new one: a stopped process cannot fork, so a daemon
 * that restarts its child, or forks while we look, cannot stay ahead of the kill. Resolves with how many there were.
 */
export async function killMarked(mark: RunMark): Promise<number> {
  const seen = new Set<number>();
  for (let round = 0; round < 3; round++) {
    const targets = stopAll(mark, seen);
    if (targets.size === 0) break;
    for (const pid of targets) signal(pid, 'SIGKILL');
    const deadline = Date.now() + DEAD_WAIT_MS;
    while (Date.now() < deadline && markedProcesses(mark).length > 0) await sleep(POLL_MS);
  }
  return seen.size;
}

/** SIGSTOPs marked processes until a pass finds none it had not stopped already; returns the stopped set. */
function stopAll(mark: RunMark, seen: Set<number>): Set<number> {
  const stopped = new Set<number>();
  for (let pass = 0; pass < STOP_PASSES; pass++) {
    const fresh = markedProcesses(mark).filter((pid) => !stopped.has(pid));
    if (fresh.length === 0) break;
    for (const pid of fresh) {
      signal(pid, 'SIGSTOP');
      stopped.add(pid);
      seen.add(pid);
    }
  }
  return stopped;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone.
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
