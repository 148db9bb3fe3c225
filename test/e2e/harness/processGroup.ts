import { spawn } from 'node:child_process';
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { ceiling } from './patience';

/**
 * A process started in its own process group, so that stopping it reaches every helper it forked
 * (code-server leaves its agent host and extension host behind when only the parent is killed).
 */
export interface GroupProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves with the exit code (or signal name) once the leader has exited. */
  readonly exited: Promise<number | string>;
  /** SIGTERM to the whole tree, SIGKILL to what is left after `graceMs`; resolves when nothing of it runs. */
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<GroupProcess>();
const tempDirs = new Set<string>();

/** Deletes `dir` when this process exits, should the normal cleanup never run (Ctrl+C, a crash). */
export function removeOnExit(dir: string): () => void {
  tempDirs.add(dir);
  installExitHook();
  return () => tempDirs.delete(dir);
}
let exitHookInstalled = false;

export function spawnGroup(command: string, args: readonly string[], options: SpawnOptions = {}): GroupProcess {
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid === undefined) throw new Error(`Could not start ${command}; check that it exists and is executable.`);
  const pid = child.pid;
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    child.once('error', () => resolve('spawn-error'));
  });
  const proc: GroupProcess = {
    child,
    pid,
    exited,
    async stop(graceMs = 5000) {
      await killTree(pid, graceMs);
      live.delete(proc);
    },
  };
  live.add(proc);
  installExitHook();
  return proc;
}

/** Every process whose ancestry reaches `rootPid`, read from /proc (snapshot; children may reparent later). */
export function descendantsOf(rootPid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may contain spaces and parentheses, so parse after its last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parentOf.set(Number(entry), Number(fields[1]));
    } catch {
      // The process ended while we were reading.
    }
  }
  const found: number[] = [];
  const frontier = [rootPid];
  while (frontier.length > 0) {
    const parent = frontier.pop()!;
    for (const [pid, ppid] of parentOf) {
      if (ppid === parent && !found.includes(pid)) {
        found.push(pid);
        frontier.push(pid);
      }
    }
  }
  return found;
}

/** Processes still in the process group `pgid` (children that reparented to init keep their group). */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields[0] is the state: a zombie has already ended and only waits to be reaped.
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(Number(entry));
    } catch {
      // Gone already.
    }
  }
  return members;
}

function signalAll(pgid: number, pids: readonly number[], signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group is already empty.
  }
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

function alive(pids: readonly number[]): number[] {
  return pids.filter((pid) => {
    try {
      process.kill(pid, 0);
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return state.slice(state.lastIndexOf(')') + 2, state.lastIndexOf(')') + 3) !== 'Z';
    } catch {
      return false;
    }
  });
}

export async function killTree(rootPid: number, graceMs: number): Promise<void> {
  // Descendants that left the group (setsid, e.g. terminals) are only reachable through the tree snapshot.
  const targets = [rootPid, ...descendantsOf(rootPid)];
  signalAll(rootPid, targets, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (alive([...targets, ...groupMembers(rootPid)]).length === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  signalAll(rootPid, [...targets, ...groupMembers(rootPid)], 'SIGKILL');
  // A killed process is gone once the kernel has reaped it, which a busy machine does later.
  const hardDeadline = Date.now() + ceiling(5000);
  while (Date.now() < hardDeadline) {
    if (alive([...targets, ...groupMembers(rootPid)]).length === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Processes of group ${rootPid} survived SIGKILL; end them by hand (kill -9 -- -${rootPid}).`);
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Last resort when mocha exits without running `after` hooks (Ctrl+C, a crash): nothing we started may outlive us.
  process.once('exit', () => {
    for (const proc of live) {
      signalAll(proc.pid, descendantsOf(proc.pid), 'SIGKILL');
    }
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.exit(130);
    });
  }
}

/** The subset of `pids` still running (zombies count as ended). */
export function stillRunning(pids: readonly number[]): number[] {
  return alive(pids);
}
