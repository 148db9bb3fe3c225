// Process checks for tests that prove nothing survives a kill.
import * as fs from 'fs';

/** process.kill(pid, 0), except that a zombie (dead, waiting for a reaper this container may lack) is dead. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
