// Whether a process recorded earlier (by pid, and on Linux by its start time) still runs: a lock or a journal whose
// owner is gone may be taken over; one whose owner runs may not. Pids are reused, so the start time decides on Linux.
import { readFileSync } from 'node:fs';
import * as os from 'node:os';

export interface ProcessIdentity {
  pid: number;
  /** Start time in clock ticks since boot (Linux /proc/PID/stat field 22); null where the platform does not say. */
  startTime: string | null;
  host: string;
}

export function currentProcess(): ProcessIdentity {
  return { pid: process.pid, startTime: startTimeOf(process.pid), host: os.hostname() };
}

function startTimeOf(pid: number): string | null {
  if (process.platform !== 'linux') return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

export function processIsAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when the recorded process still runs; a record from another machine is taken as running (it cannot be checked). */
export function isStillRunning(owner: ProcessIdentity): boolean {
  if (owner.host !== os.hostname()) return true;
  if (!processIsAlive(owner.pid)) return false;
  const now = startTimeOf(owner.pid);
  return owner.startTime === null || now === null || now === owner.startTime;
}
