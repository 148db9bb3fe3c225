// How fast `greenloop parse` reads a 50 MB test log, next to `wc -l` on the same file (baseline, same run).
// Run: npm run bench:parse   (prints a table; never part of npm test)
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.join(__dirname, '..');
const CAPTURED = path.join(ROOT, 'test', 'fixtures', 'captured');
const TARGET_MB = Number(process.env.BENCH_MB ?? 50);
const CASES: [format: string, capture: string][] = [
  ['mocha', 'mocha/spec-mixed-color.txt'],
  ['jest', 'jest/default-mixed-color.txt'],
  ['vitest', 'vitest/default-mixed-color.txt'],
  ['node', 'node/spec-mixed.txt'],
  ['tap', 'node/tap-mixed.txt'],
  ['pytest', 'pytest/rA-mixed.txt'],
  ['go', 'go/v-mixed.txt'],
  ['cargo', 'cargo/mixed.txt'],
  ['tsc', 'tsc/plain-errors.txt'],
  ['junit', 'jest/junit-mixed.xml'],
  // One real run with 50 MB of the tests' own output in the middle: memory must not grow with the log.
  ['tap-noise', 'node/tap-mixed.txt'],
];

/** A big log made of one real capture over and over (XML: its test cases repeated inside one document). */
function bigLog(format: string, capture: string, file: string): void {
  const text = fs.readFileSync(path.join(CAPTURED, capture), 'utf8');
  const fd = fs.openSync(file, 'w');
  const target = TARGET_MB * 1024 * 1024;
  let written = 0;
  if (format === 'tap-noise') {
    const cut = text.indexOf('# Subtest: Users');
    written += fs.writeSync(fd, text.slice(0, cut));
    const noise = `# ${'x'.repeat(198)}\n`.repeat(5000);
    while (written < target) written += fs.writeSync(fd, noise);
    fs.writeSync(fd, text.slice(cut));
  } else if (format === 'junit') {
    const open = text.indexOf('<testsuite ');
    const close = text.lastIndexOf('</testsuites>');
    const head = text.slice(0, open);
    const body = text.slice(open, close);
    written += fs.writeSync(fd, head);
    while (written < target) written += fs.writeSync(fd, body);
    fs.writeSync(fd, text.slice(close));
  } else {
    while (written < target) written += fs.writeSync(fd, text);
  }
  fs.closeSync(fd);
}

function time(cmd: string, args: string[]): number {
  const t0 = process.hrtime.bigint();
  execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 30 });
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** Peak resident memory of one run, in MB (GNU time's %M), to show memory does not grow with the log. */
function peakRssMb(cmd: string, args: string[]): number {
  if (!fs.existsSync('/usr/bin/time')) return NaN;
  const r = spawnSync('/usr/bin/time', ['-f', '%M', cmd, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const kb = Number(r.stderr.trim().split('\n').pop());
  return kb / 1024;
}

function main(): void {
  execFileSync(process.execPath, [path.join(ROOT, 'esbuild.js')], { cwd: ROOT, stdio: 'inherit' });
  const cli = path.join(ROOT, 'dist', 'cli.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-bench-parse-'));
  console.log(`greenloop parse on a ~${TARGET_MB} MB log per format (real captures repeated), vs wc -l on the same file`);
  console.log('format  | MB   | wc -l ms | parse ms | parse MB/s | parse/wc | peak RSS MB');
  console.log('--------|------|----------|----------|------------|----------|------------');
  try {
    for (const [format, capture] of CASES) {
      const file = path.join(dir, `${format}.log`);
      bigLog(format, capture, file);
      const mb = fs.statSync(file).size / (1024 * 1024);
      time('wc', ['-l', file]); // warm the page cache for both
      const wc = Math.min(time('wc', ['-l', file]), time('wc', ['-l', file]));
      const as = format === 'tap-noise' ? 'tap' : format;
      const parse = time(process.execPath, [cli, 'parse', '--format', as, file]);
      const rss = peakRssMb(process.execPath, [cli, 'parse', '--format', as, file]);
      console.log(`${format.padEnd(7)} | ${mb.toFixed(0).padStart(4)} | ${wc.toFixed(0).padStart(8)} | ${parse.toFixed(0).padStart(8)} | ${(mb / (parse / 1000)).toFixed(1).padStart(10)} | ${(parse / wc).toFixed(1).padStart(7)}× | ${rss.toFixed(0).padStart(11)}`);
      fs.rmSync(file);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main();
