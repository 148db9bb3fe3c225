// What a misbehaving model can cost a run, each figure next to a baseline measured in the same run:
//   0. reading adversarial inputs of doubling size (bench/boundsGrowth.ts): the ratios show the time is linear;
//   1. answers built to be slow to read (bench/boundsCases.ts) vs a plain answer of the same size: time to read and
//      apply, and the longest stretch the event loop was blocked (what Stop would wait for);
//   2. peak memory of a process reading a 1 GB error body, a 1 GB answer (JSON and streamed) vs a 1 KB body, and how
//      long a server dripping a byte a second holds a request (request timeout 2 s);
//   3. how long `greenloop fix` takes to exit on Ctrl-C while the server drips, and right after a slow-to-read answer;
//   4. peak memory of `greenloop fix` when every test run prints 200 MB, vs `greenloop verify` once (bench/boundsMemory.ts);
//   5. peak memory of `greenloop fix` on 200 MB of lines naming one test and on 1,000,000 distinct tests, each vs the
//      same run on a small output (bench/boundsTests.ts; issue 30's bounds: 200 MB and 500 MB).
// Run: npm run bench:bounds   (prints tables; never part of npm test; exits 1 when a bound of table 5 is missed;
// BENCH_TABLES=4,5 for some of them)
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyModelAnswer } from '../src/core/edits/applyModelAnswer';
import { makePathPolicy } from '../src/core/edits/pathPolicy';
import type { SnapshotStore } from '../src/ports/snapshots';
import type { IterationRecord, RunState } from '../src/ports/runState';
import { DEFAULT_SNAPSHOT_EXCLUDES } from '../src/shared/config';
import { DEFAULT_PROTECTED_GLOBS } from '../src/session/protectedGlobs';
import { startFakeOpenAIServer } from '../test/support/fakeOpenAIServer';
import type { ScriptStep } from '../test/support/fakeOpenAIServer';
import { slowToReadAnswer } from '../test/support/adversarialAnswers';
import { startCli, tempDir, tempProject } from '../test/unit/support/cli';
import { CASES } from './boundsCases';
import { growthTable } from './boundsGrowth';
import { memoryTable } from './boundsMemory';
import { testsTable } from './boundsTests';
import type { Answer } from './boundsCases';

const ROOT = path.join(__dirname, '..');
const GB = 1024 * 1024 * 1024;

/** Longest gap between 1 ms timer ticks while `work` runs: the longest the event loop could not answer Stop. */
async function timed(work: () => Promise<unknown>): Promise<{ ms: number; blockedMs: number; result: unknown }> {
  let last = performance.now();
  let blockedMs = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    blockedMs = Math.max(blockedMs, now - last);
    last = now;
  }, 1);
  const t0 = performance.now();
  const result = await work();
  const ms = performance.now() - t0;
  blockedMs = Math.max(blockedMs, performance.now() - last);
  clearInterval(tick);
  return { ms, blockedMs, result };
}

/** The engine's own path for a model's answer: parse, check paths, plan, tamper checks, write. */
async function readAnswer(answer: Answer): Promise<{ ms: number; blockedMs: number; outcome: string }> {
  const runs: Array<{ ms: number; blockedMs: number; outcome: string }> = [];
  for (let i = 0; i < 3; i++) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-bench-bounds-'));
    try {
      answer.setup(root);
      const policy = makePathPolicy({ root, protectedGlobs: DEFAULT_PROTECTED_GLOBS, allowTestEdits: false, excludes: DEFAULT_SNAPSHOT_EXCLUDES });
      const snapshots = { unrecorded: async () => [] } as unknown as SnapshotStore;
      const state = { seenProposals: [], iterations: [] } as unknown as RunState;
      const record = { files: [], note: '', hypothesis: '', proposalHash: null } as unknown as IterationRecord;
      const r = await timed(() => applyModelAnswer({ cwd: root, policy, snapshots }, state, record, answer.text));
      runs.push({ ms: r.ms, blockedMs: r.blockedMs, outcome: r.result ? 'applied' : record.note.replace(/\s+/g, ' ') });
    } finally {
      // Node's own recursive removal runs out of stack on a 2,000-deep tree.
      spawnSync('rm', ['-rf', root]);
    }
  }
  runs.sort((a, b) => a.ms - b.ms);
  return runs[1]!;
}

const pad = (s: string | number, n: number) => String(s).padStart(n);
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

async function answersTable(): Promise<void> {
  console.log('\n1. Reading an answer: adversarial vs plain of the same size (median of 3; "blocked" = longest event-loop stall)');
  console.log('case                                     | KB    | plain ms | adv. ms | adv./plain | blocked ms | adversarial outcome');
  console.log('-----------------------------------------|-------|----------|---------|------------|------------|--------------------');
  for (const c of CASES) {
    const plain = await readAnswer(c.plain);
    const adv = await readAnswer(c.adversarial);
    const kb = Math.round(Buffer.byteLength(c.adversarial.text) / 1000);
    console.log(`${c.name.padEnd(40)} | ${pad(kb, 5)} | ${pad(plain.ms.toFixed(0), 8)} | ${pad(adv.ms.toFixed(0), 7)} | ${pad((adv.ms / plain.ms).toFixed(1), 9)}× | ${pad(Math.max(adv.blockedMs, plain.blockedMs).toFixed(0), 10)} | ${cut(adv.outcome, 60)}`);
  }
}

async function bodiesTable(): Promise<void> {
  console.log('\n2. Reading a body: peak RSS of one OpenAIActor request in its own process, vs a 1 KB error body');
  console.log('body                                  | sent by server | ms     | peak RSS MB | vs baseline | outcome');
  console.log('--------------------------------------|----------------|--------|-------------|-------------|--------');
  const cases: Array<[string, ScriptStep, boolean, number?]> = [
    ['1 KB error body (baseline)', { huge: { bytes: 1024, status: 500 } }, false],
    ['1 GB error body', { huge: { bytes: GB, status: 500, filler: 'upstream exploded ' } }, false],
    ['1 GB JSON answer', { huge: { bytes: GB } }, false],
    ['1 GB streamed answer', { huge: { bytes: GB } }, true],
    ['drip, 1 byte/s (request timeout 2 s)', { drip: { intervalMs: 1000 } }, true, 2000],
  ];
  let baseline = 0;
  for (const [name, step, stream, timeoutMs] of cases) {
    const server = await startFakeOpenAIServer([step]);
    try {
      const args = ['-r', 'tsx/cjs', path.join(__dirname, 'readBodyOnce.ts'), server.url, stream ? 'stream' : 'json', String(timeoutMs ?? 120_000)];
      const child = await runNode(args);
      const r = JSON.parse(child.trim().split('\n').pop()!) as { outcome: string; ms: number; peakRssMb: number };
      if (!baseline) baseline = r.peakRssMb;
      const sent = server.sentBytes[0] ?? 0;
      const sentText = sent >= 1e6 ? `${(sent / 1e6).toFixed(1)} MB` : `${sent} B`;
      console.log(`${name.padEnd(37)} | ${pad(sentText, 14)} | ${pad(r.ms.toFixed(0), 6)} | ${pad(r.peakRssMb.toFixed(0), 11)} | ${pad((r.peakRssMb / baseline).toFixed(2), 10)}× | ${cut(r.outcome, 70)}`);
    } finally {
      await server.close();
    }
  }
}

/** Runs node with these arguments asynchronously (the loopback server lives in this process). */
function runNode(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', () => resolve(out));
  });
}

async function stopTable(): Promise<void> {
  console.log('\n3. Ctrl-C: time from SIGINT to the exit of `greenloop fix` (calc fixture, request timeout 60 s)');
  console.log('moment                                         | exit code | ms');
  console.log('-----------------------------------------------|-----------|-----');
  const moments: Array<[string, ScriptStep[], 'started' | 'answered']> = [
    ['while the server drips a byte a second', [{ drip: { intervalMs: 1000 } }], 'started'],
    ['right after a 1.8 MB slow-to-read answer', [{ content: slowToReadAnswer() }, { drip: { intervalMs: 1000 } }], 'answered'],
  ];
  for (const [name, script, when] of moments) {
    const server = await startFakeOpenAIServer(script);
    const project = tempProject('calc');
    const stateDir = tempDir('state');
    try {
      const run = startCli(['fix', '--cwd', project, '--actor', 'openai', '--base-url', server.url, '--model', 'bench', '--no-stream', '--tsc', 'off', '--state-dir', stateDir, '--request-timeout-s', '60', '--json'], { timeoutMs: 120_000 });
      await (when === 'started' ? server.started(1) : server.answered(1));
      const t0 = performance.now();
      run.child.kill('SIGINT');
      const res = await run.done;
      console.log(`${name.padEnd(46)} | ${pad(String(res.code), 9)} | ${pad((performance.now() - t0).toFixed(0), 4)}`);
    } finally {
      await server.close();
      fs.rmSync(project, { recursive: true, force: true });
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
  }
}

async function main(): Promise<void> {
  // BENCH_TABLES=4,5 runs only those tables.
  const only = process.env.BENCH_TABLES?.split(',').map(Number);
  const tables: Array<() => unknown> = [growthTable, answersTable, bodiesTable, stopTable, memoryTable, testsTable];
  for (const [i, table] of tables.entries()) if (!only || only.includes(i)) await table();
}

void main();
