// Shell snippets that start processes built to outlive the command that started them, and checks that find
// them afterwards by their own command line (independent of how Greenloop tracks what it started).
import { execFileSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { alive } from './processes';

export interface DaemonSet {
  /** Shell lines that start every daemon and return once each has written its pid file. */
  script: string;
  /** Appears in the command line of every process the daemons run (a sleep of an unusual length). */
  marker: string;
  /** The daemons, by name, for messages. */
  names: string[];
  /** The pids the daemons wrote, by name (read after the command ran). */
  pids(dir: string): Record<string, number>;
}

/**
 * Five ways a test suite leaves something running: a setsid'd sleep, a double fork, nohup, a setsid'd daemon
 * that ignores SIGTERM, and a setsid'd supervisor that restarts its child as soon as it dies.
 */
export function daemonSet(): DaemonSet {
  // sleep 300.<random>: still five minutes, and a command line no other process on the machine has.
  const marker = `300.${crypto.randomInt(100_000, 999_999)}`;
  const starts: Record<string, string> = {
    setsid: `( setsid sh -c 'echo $$ > setsid.pid; exec sleep ${marker}' & )`,
    'double-fork': `sh -c '(sh -c "echo \\$\\$ > double-fork.pid; exec sleep ${marker}" &) &'`,
    nohup: `nohup sh -c 'echo $$ > nohup.pid; exec sleep ${marker}' > /dev/null 2>&1 &`,
    'ignores-sigterm': `( setsid sh -c 'trap "" TERM; echo $$ > ignores-sigterm.pid; while :; do sleep ${marker}; done' & )`,
    respawner: `( setsid sh -c 'echo $$ > respawner.pid; while :; do sleep ${marker} & wait; done' > /dev/null 2>&1 & )`,
  };
  const names = Object.keys(starts);
  const ready = names.map((n) => `[ -s ${n}.pid ]`).join(' && ');
  const script = [...Object.values(starts), `until ${ready}; do sleep 0.02; done`].join('\n');
  return {
    script,
    marker,
    names,
    pids: (dir) => Object.fromEntries(names.map((n) => [n, Number(fs.readFileSync(path.join(dir, `${n}.pid`), 'utf8'))])),
  };
}

/** Live (non-zombie) processes whose command line contains `marker` (the sleeps and the shells around them), from /proc. */
export function processesWithMarker(marker: string): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let cmdline: string;
    try {
      cmdline = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (cmdline.includes(marker) && alive(Number(name))) found.push(Number(name));
  }
  return found;
}

/** The same question asked of `ps`, as a person would check. */
export function psLinesWithMarker(marker: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes(marker) && !/^\s*\d+\s+Z/.test(line));
}

/** Every process a test left behind, in words, or '' when none is left. */
export function survivors(dir: string, set: DaemonSet): string {
  const pids = set.pids(dir);
  const alivePids = Object.entries(pids).filter(([, pid]) => alive(pid)).map(([n, pid]) => `${n} (${pid})`);
  const byMarker = processesWithMarker(set.marker);
  const ps = psLinesWithMarker(set.marker);
  if (alivePids.length === 0 && byMarker.length === 0 && ps.length === 0) return '';
  return `left running: ${alivePids.join(', ') || '-'}; by command line: ${byMarker.join(', ') || '-'}; ps: ${ps.join(' | ') || '-'}`;
}

/** Kills what a failing test left behind, so one failure does not leak into the rest of the suite. */
export function cleanUp(set: DaemonSet, dir: string): void {
  let pids: number[] = [];
  try {
    pids = Object.values(set.pids(dir));
  } catch {
    // the command never got as far as writing every pid file
  }
  for (const pid of [...pids, ...processesWithMarker(set.marker)]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
