// Ends a command and everything it started. The shell is spawned as its own process group, so one group
// signal reaches most of the tree; processes that left the group (setsid, detached spawns) are found by
// walking parent links *before* anything is killed, because once their parent dies they are re-parented
// and no longer look like ours; on Linux, those already re-parented are found by the command's run mark.
import { execFile } from 'child_process';
import * as fs from 'fs';
import treeKill from 'tree-kill';
import { markedProcesses } from './runMark';
import type { RunMark } from './runMark';

export interface KillTreeOptions {
  /** Time between SIGTERM and SIGKILL. */
  graceMs?: number;
  /** The command's run mark: its processes that already left the tree get the same SIGTERM and grace. */
  mark?: RunMark;
}

const POLL_MS = 50;
const AFTER_KILL_WAIT_MS = 2000;

interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
}

/** True while the process exists and is not a zombie (containers often lack an init that reaps orphans). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  const info = readProcStat(pid);
  return info === null ? false : info.state !== 'Z' && info.state !== 'X';
}

/** Kills the tree rooted at `pid` (and its process group on POSIX); resolves when none of it is left, or gives up quietly. */
export async function killTree(pid: number, opts: KillTreeOptions = {}): Promise<void> {
  if (process.platform === 'win32') {
    // taskkill /T /F walks the tree on Windows; there is no graceful signal to send first.
    await new Promise<void>((resolve) => treeKill(pid, 'SIGKILL', () => resolve()));
    return;
  }
  const graceMs = opts.graceMs ?? 2000;
  const known = new Set<number>([pid]);
  // Freeze first: a stopped process cannot fork, so the tree we find is the whole tree, and nobody is
  // re-parented away from us between the scan and the kill.
  holdFrozen(pid, known);
  signalGroup(pid, 'SIGSTOP');
  signal(pid, 'SIGSTOP');
  let scanned = false;
  for (let pass = 0; pass < 5; pass++) {
    const table = await listProcesses();
    if (table === null) break;
    scanned = true;
    const before = new Set(known);
    collect(table, pid, known, opts.mark);
    const fresh = [...known].filter((p) => !before.has(p));
    for (const p of fresh) signal(p, 'SIGSTOP');
    if (fresh.length === 0 && pass > 0) break;
  }
  if (!scanned) {
    // No /proc and no ps: tree-kill is the best we can do for descendants outside the group.
    signalGroup(pid, 'SIGCONT');
    signalGroup(pid, 'SIGTERM');
    await new Promise<void>((resolve) => treeKill(pid, 'SIGTERM', () => resolve()));
  }
  signalGroup(pid, 'SIGTERM');
  for (const p of known) signal(p, 'SIGTERM');
  // Stopped processes only act on SIGTERM once continued; this lets them clean up.
  signalGroup(pid, 'SIGCONT');
  for (const p of known) signal(p, 'SIGCONT');
  frozen.delete(pid);

  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!anyAlive(pid, known)) return;
    await sleep(POLL_MS);
    // Children forked after the first scan by processes outside the group.
    const fresh = await listProcesses();
    if (fresh) {
      const before = known.size;
      collect(fresh, pid, known, opts.mark);
      if (known.size > before) for (const p of known) signal(p, 'SIGTERM');
    }
  }
  signalGroup(pid, 'SIGKILL');
  for (const p of known) if (isProcessAlive(p)) signal(p, 'SIGKILL');
  const killDeadline = Date.now() + AFTER_KILL_WAIT_MS;
  while (Date.now() < killDeadline && anyAlive(pid, known)) await sleep(POLL_MS);
}

/**
 * Trees stopped and not yet continued. Were this process to end between the two (a second Ctrl-C, a closed pipe's
 * EPIPE, process.exit after a cancel), they would stay stopped for ever, holding ports and files: on exit, they die.
 */
const frozen = new Map<number, Set<number>>();
let exitHook = false;

function holdFrozen(pid: number, known: Set<number>): void {
  frozen.set(pid, known);
  if (exitHook) return;
  exitHook = true;
  process.on('exit', () => {
    for (const [group, members] of frozen) {
      signalGroup(group, 'SIGKILL');
      for (const p of members) signal(p, 'SIGKILL');
    }
  });
}

/** Signals the group without waiting: for stragglers a finished command left behind. */
export function signalGroup(pgid: number, sig: NodeJS.Signals): void {
  if (process.platform === 'win32') return;
  try {
    process.kill(-pgid, sig);
  } catch {
    // ESRCH: the group is already empty.
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone.
  }
}

function anyAlive(pgid: number, known: Set<number>): boolean {
  for (const p of known) if (isProcessAlive(p)) return true;
  // Group members we never saw (forked between scans) still count.
  if (process.platform === 'linux') {
    const table = listProcFs();
    if (table) return table.some((p) => p.pgid === pgid && isProcessAlive(p.pid));
  }
  return false;
}

/** Adds every descendant of `root`, every member of its process group and every marked process to `known`. */
function collect(table: ProcInfo[], root: number, known: Set<number>, mark?: RunMark): void {
  for (const p of table) if (p.pgid === root) known.add(p.pid);
  if (mark) for (const pid of markedProcesses(mark)) known.add(pid);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of table) {
      if (!known.has(p.pid) && known.has(p.ppid) && p.pid !== process.pid) {
        known.add(p.pid);
        grew = true;
      }
    }
  }
}

async function listProcesses(): Promise<ProcInfo[] | null> {
  if (process.platform === 'linux') {
    const table = listProcFs();
    if (table) return table;
  }
  return listPs();
}

function listProcFs(): ProcInfo[] | null {
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return null;
  }
  const out: ProcInfo[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const info = readProcStat(Number(name));
    if (info && info.state !== 'Z') out.push(info);
  }
  return out;
}

function readProcStat(pid: number): (ProcInfo & { state: string }) | null {
  let raw: string;
  try {
    raw = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name is in parentheses and may itself contain spaces or parentheses.
  const fields = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
  return { pid, state: fields[0], ppid: Number(fields[1]), pgid: Number(fields[2]) };
}

function listPs(): Promise<ProcInfo[] | null> {
  return new Promise((resolve) => {
    execFile('ps', ['-A', '-o', 'pid=,ppid=,pgid='], { timeout: 5000 }, (err, stdout) => {
      if (err) return resolve(null);
      const rows: ProcInfo[] = [];
      for (const line of stdout.split('\n')) {
        const m = /^\s*(\d+)\s+(\d+)\s+(\d+)/.exec(line);
        if (m) rows.push({ pid: Number(m[1]), ppid: Number(m[2]), pgid: Number(m[3]) });
      }
      resolve(rows);
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
