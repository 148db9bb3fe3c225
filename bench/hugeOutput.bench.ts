// Peak memory and time of `greenloop verify` on a test command that prints 1 GB: a real node TAP capture with a
// gigabyte of the tests' own output in the middle, streamed through a pipe as a real run would. Baselines from
// the same run: the same command piped into `wc -l` (every byte read through a pipe, nothing
// understood), and a bare Node process.
// Run: npm run bench:huge-output   (BENCH_GB=0.2 for a quicker run; never part of npm test)
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.join(__dirname, '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const CAPTURE = path.join(ROOT, 'test', 'fixtures', 'captured', 'node', 'tap-mixed.txt');
const GB = Number(process.env.BENCH_GB ?? 1);
const TIME = '/usr/bin/time';

/** The test command: the capture's head, `bytes` of noise lines, the capture's tail — written as fast as the pipe takes it. */
const GENERATOR = `
const fs = require('fs');
const text = fs.readFileSync(process.argv[2], 'utf8');
const cut = text.indexOf('# Subtest: Users');
const bytes = Number(process.argv[3]);
const noise = Buffer.from(('# ' + 'x'.repeat(198) + '\\n').repeat(5000));
let written = 0;
fs.writeSync(1, text.slice(0, cut));
function more() {
  while (written < bytes) {
    written += noise.length;
    if (!process.stdout.write(noise)) return process.stdout.once('drain', more);
  }
  process.stdout.write(text.slice(cut), () => process.exit(/not ok/.test(text) ? 1 : 0));
}
more();
`;

interface Measured {
  seconds: number;
  peakMb: number;
  stdout: string;
}

/** Runs a shell command under GNU time: wall seconds and the peak resident set of the biggest process. */
function measure(command: string, cwd: string): Measured {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(TIME, ['-f', '%M', 'sh', '-c', command], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const kb = Number(r.stderr.trim().split('\n').pop());
  return { seconds, peakMb: Math.round(kb / 1024), stdout: r.stdout };
}

function main(): void {
  if (!fs.existsSync(CLI)) throw new Error('Build first: npm run build');
  if (!fs.existsSync(TIME)) throw new Error(`${TIME} (GNU time) is needed to measure peak memory.`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-bench-huge-'));
  try {
    fs.writeFileSync(path.join(dir, 'gen.js'), GENERATOR);
    const bytes = Math.round(GB * 1024 ** 3);
    const testCmd = `node gen.js ${JSON.stringify(CAPTURE)} ${bytes}`;
    const bare = measure('node -e 0', dir);
    const piped = measure(`${testCmd} | wc -l`, dir);
    const verify = measure(`node ${JSON.stringify(CLI)} verify --cwd . --tsc off --timeout-s 3600 --test-cmd ${JSON.stringify(testCmd)}`, dir);
    let failing = '?';
    try {
      const witness = JSON.parse(verify.stdout) as { failing: string[]; loadError: boolean };
      failing = `${witness.failing.length} failing${witness.loadError ? ', load error' : ''}`;
    } catch {
      failing = `unreadable witness: ${verify.stdout.slice(0, 200)}`;
    }
    const mbPerS = (bytes / 1024 ** 2 / verify.seconds).toFixed(0);
    console.log(`greenloop verify on a test command printing ${GB} GB (${(bytes / 1024 ** 2).toFixed(0)} MB) through a pipe\n`);
    console.log('| run | seconds | peak RSS MB |');
    console.log('|---|---|---|');
    console.log(`| bare node (baseline) | ${bare.seconds.toFixed(2)} | ${bare.peakMb} |`);
    console.log(`| the test command piped into wc -l (baseline) | ${piped.seconds.toFixed(2)} | ${piped.peakMb} |`);
    console.log(`| greenloop verify (reads every line) | ${verify.seconds.toFixed(2)} | ${verify.peakMb} |`);
    console.log(`\nwitness: ${failing}; ${mbPerS} MB/s; peak memory ${(verify.peakMb / bare.peakMb).toFixed(1)}× a bare node, ` +
      `time ${(verify.seconds / piped.seconds).toFixed(1)}× the command piped into wc -l`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main();
