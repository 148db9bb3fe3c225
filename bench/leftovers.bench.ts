// Two figures about what a run leaves behind (Linux only; never part of npm test):
//  1. How long one scan of /proc for a run's mark takes with ~500 extra processes, next to the scan killTree
//     already does (/proc/<pid>/stat of every process) in the same run.
//  2. "processes left after verify: 0 of N tried": real daemons (setsid, double fork, nohup, SIGTERM-ignoring,
//     self-restarting) started by test commands that exit normally and by ones that hang past the timeout.
// Run: npm run bench:leftovers   [BENCH_PROCS=500] [BENCH_ROUNDS=10]
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { markedProcesses, newRunMark } from '../src/base/process/runMark';
import { runCommand } from '../src/base/process/runCommand';
import { daemonSet, processesWithMarker, survivors } from '../test/unit/support/daemons';

const PROCS = Number(process.env.BENCH_PROCS ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const SCANS = 30;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** The baseline: what killTree already reads per pass (state, ppid, pgid of every process). */
function statScan(): number {
  let n = 0;
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      n++;
    } catch {
      // gone meanwhile
    }
  }
  return n;
}

function timeMs(fn: () => unknown): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

async function scanCost(): Promise<void> {
  const extra: ChildProcess[] = [];
  // Each extra process carries a large-ish environment of its own, as real dev tools do.
  const env = { ...process.env, BENCH_PADDING: 'x'.repeat(4096) };
  for (let i = 0; i < PROCS; i++) extra.push(spawn('sleep', ['600'], { stdio: 'ignore', env }));
  try {
    await new Promise((r) => setTimeout(r, 500));
    const total = fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n)).length;
    const mark = newRunMark();
    for (let i = 0; i < 3; i++) {
      statScan();
      markedProcesses(mark);
    }
    const stat = median(Array.from({ length: SCANS }, () => timeMs(statScan)));
    const environ = median(Array.from({ length: SCANS }, () => timeMs(() => markedProcesses(mark))));
    console.log(`one /proc scan, ${total} processes (median of ${SCANS}):`);
    console.log(`  mark scan (environ of each): ${environ.toFixed(2)} ms`);
    console.log(`  stat scan (killTree's pass): ${stat.toFixed(2)} ms`);
    console.log(`  ratio mark/stat:             ${(environ / stat).toFixed(2)}×`);
  } finally {
    for (const c of extra) c.kill('SIGKILL');
  }
}

async function leftovers(): Promise<void> {
  let tried = 0;
  let left = 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-bench-leftovers-'));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const hang of [false, true]) {
        for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f));
        const set = daemonSet();
        // The command says when its daemons are up and waits to be told to go on (or hangs until the timeout).
        const tail = hang ? 'touch ready; sleep 300' : 'touch ready; until [ -e go ]; do sleep 0.02; done';
        const run = runCommand({ command: `${set.script}\n${tail}`, cwd: dir, timeoutMs: hang ? 3000 : 60_000, killGraceMs: 300 });
        while (!fs.existsSync(path.join(dir, 'ready'))) await new Promise((r) => setTimeout(r, 10));
        tried += processesWithMarker(set.marker).length;
        if (!hang) fs.writeFileSync(path.join(dir, 'go'), '');
        await run;
        const rest = processesWithMarker(set.marker);
        left += rest.length;
        if (survivors(dir, set)) console.log(`  round ${round} (${hang ? 'timeout' : 'normal exit'}): ${survivors(dir, set)}`);
        for (const pid of rest) process.kill(pid, 'SIGKILL');
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`processes left after verify: ${left} of ${tried} tried (${ROUNDS} normal exits + ${ROUNDS} timeouts, 5 daemon kinds each)`);
}

async function main(): Promise<void> {
  if (process.platform !== 'linux') {
    console.log(`skipped: the mark scan needs Linux's /proc (this is ${process.platform})`);
    return;
  }
  await scanCost();
  await leftovers();
}

void main();
