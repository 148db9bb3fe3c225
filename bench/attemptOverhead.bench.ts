// Greenloop's own time per attempt — prompt, judging, history, apply, snapshot — on a 20,000-file repository, as a
// fraction of the test command's own time, both measured in the same run. `greenloop fix` runs on a copy with six
// failing tests and a scripted model that answers at once, one fix per answer. The test command (`npm test`) writes
// when its test runner starts and ends; each attempt is the gap from the end of one test run to the start of the
// next, less the model's answer time and less what npm itself adds around the runner (measured alone on the same
// files). Then each part of an attempt is timed alone (bench/attemptParts.ts) to show where that time goes.
// Run: npm run bench:overhead [-- --files N]
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startFakeOpenAIServer } from '../test/support/fakeOpenAIServer';
import { timeAttemptParts } from './attemptParts';
import { writeBigRepo } from './bigRepo';
import { block, say } from './pathologies/scenario';
import { calcRepo, CALC, RIGHT, WRONG } from './pathologies/calcRepo';

const args = process.argv.slice(2);
const FILES = Number(args[args.indexOf('--files') + 1] || 20_000) || 20_000;
const WORK = path.join(__dirname, '.work');
const CLI = path.join(__dirname, '..', 'dist', 'cli.js');
/** Test files beside the calc suite: a realistic small project's `node --test` run of about a second. */
const SUITE_FILES = 24;
const BUGS = ['add', 'sub', 'mul', 'div', 'pow', 'mod'];

interface RunFigures { attempts: number; testRuns: number; wallMs: number; /** Per attempt: the gap between two test runs, and the model's share of it. */ gaps: Array<{ gapMs: number; modelMs: number }> }

function workspace(name: string, wrong: string[]): { dir: string; marks: string } {
  const dir = path.join(WORK, `overhead-${name}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(path.join(WORK, `repo-${FILES}`), dir, { recursive: true });
  const marks = path.join(WORK, `overhead-${name}.marks`);
  fs.writeFileSync(marks, '');
  const files = calcRepo(wrong, { testScript: `node mark.js start && node --test test/; s=$?; node mark.js end; exit $s` });
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  fs.writeFileSync(path.join(dir, 'mark.js'), `require('fs').appendFileSync(${JSON.stringify(marks)}, process.argv[2] + ' ' + Date.now() + '\\n');\n`);
  for (let i = 0; i < SUITE_FILES; i++) {
    fs.writeFileSync(path.join(dir, 'test', `work${i}.test.js`), `'use strict';\nconst test = require('node:test');\nconst assert = require('node:assert');\nconst calc = require('../src/calc');\n${Array.from({ length: 5 }, (_, j) => `test('work ${i}.${j}', () => { let x = 0; for (let k = 0; k < 20000; k++) x = calc.mod(x + k, 97); assert.ok(x >= 0); });`).join('\n')}\n`);
  }
  return { dir, marks };
}

interface Mark { what: 'start' | 'end'; at: number }

function readMarks(marks: string): Mark[] {
  return fs.readFileSync(marks, 'utf8').trim().split('\n').filter(Boolean).map((l) => {
    const [what, at] = l.split(' ');
    return { what: what as Mark['what'], at: Number(at) };
  });
}

/** The test command alone, as the verifier spawns it: its wall time, and what npm adds around the runner. */
async function commandAlone(dir: string, marks: string, reps: number): Promise<{ wallMs: number; npmMs: number }> {
  const walls: number[] = [];
  const wrappers: number[] = [];
  for (let i = 0; i < reps; i++) {
    fs.writeFileSync(marks, '');
    const t = Date.now();
    await new Promise<void>((resolve) => execFile('sh', ['-c', 'npm test'], { cwd: dir, maxBuffer: 64 << 20 }, () => resolve()));
    const wall = Date.now() - t;
    const [start, end] = readMarks(marks);
    walls.push(wall);
    wrappers.push(wall - (end!.at - start!.at));
  }
  return { wallMs: median(walls), npmMs: median(wrappers) };
}

async function fixRun(name: string, bugs: string[]): Promise<RunFigures> {
  const { dir, marks } = workspace(name, bugs);
  const requests: Array<{ at: number; answeredAt: number }> = [];
  const model = await startFakeOpenAIServer([], {
    respond: (_req, n) => {
      const at = Date.now();
      const fn = bugs[n - 1] ?? bugs[bugs.length - 1]!;
      const step = say(`Fixing ${fn}.`, block(CALC, `function ${fn}(a, b) {\n  return ${WRONG[fn]};`, `function ${fn}(a, b) {\n  return ${RIGHT[fn]};`));
      requests.push({ at, answeredAt: Date.now() });
      return step;
    },
  });
  const stateDir = path.join(WORK, `overhead-${name}.state`);
  fs.rmSync(stateDir, { recursive: true, force: true });
  const started = Date.now();
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(process.execPath, [CLI, 'fix', '--cwd', dir, '--actor', 'openai', '--base-url', model.url, '--model', 'scripted', '--state-dir', stateDir, '--tsc', 'off', '--json'], { maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr })),
  );
  const wallMs = Date.now() - started;
  await model.close();
  if (code !== 0) throw new Error(`greenloop fix did not reach green (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
  const report = JSON.parse(stdout);
  const m = readMarks(marks);
  const gaps: RunFigures['gaps'] = [];
  for (let i = 1; i + 1 < m.length; i += 2) {
    if (m[i]!.what !== 'end' || m[i + 1]!.what !== 'start') continue;
    const within = requests.filter((r) => r.at >= m[i]!.at && r.at <= m[i + 1]!.at);
    // Only gaps with a model call are attempts (the others are re-runs: the flaky check, the green confirmation).
    // The client's side of a loopback answer given at once: a few milliseconds, counted at 10 to be safe.
    if (within.length) gaps.push({ gapMs: m[i + 1]!.at - m[i]!.at, modelMs: within.reduce((a, r) => a + (r.answeredAt - r.at) + 10, 0) });
  }
  return { attempts: report.iterations.length, testRuns: m.filter((x) => x.what === 'start').length, wallMs, gaps };
}

/** The parts of an attempt timed one by one on the run's workspace and saved state, so a reader sees where it goes. */
async function printParts(testMs: number): Promise<void> {
  const dir = path.join(WORK, 'overhead-run');
  const testOutput = await new Promise<string>((resolve) =>
    execFile(process.execPath, ['--test', 'test/'], { cwd: dir, maxBuffer: 64 << 20 }, (_err, stdout, stderr) => resolve(stdout + stderr)));
  const parts = await timeAttemptParts({ workspace: dir, stateDir: path.join(WORK, 'overhead-run.state'), editFile: CALC, testOutput, reps: 7 });
  console.log(`\n| part of an attempt, timed alone (median of 7) | ms | times per attempt | % of \`npm test\` alone |`);
  console.log('|---|---|---|---|');
  for (const p of parts) console.log(`| ${p.part} | ${p.ms.toFixed(1)} | ${p.perAttempt} | ${((p.ms * p.perAttempt / testMs) * 100).toFixed(1)} |`);
  const sum = parts.reduce((a, p) => a + p.ms * p.perAttempt, 0);
  console.log(`| sum per attempt | ${sum.toFixed(1)} | | ${((sum / testMs) * 100).toFixed(1)} |`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;


async function main(): Promise<void> {
  if (!fs.existsSync(CLI)) throw new Error('dist/cli.js is missing; run `npm run build` first.');
  fs.mkdirSync(WORK, { recursive: true });
  writeBigRepo(path.join(WORK, `repo-${FILES}`), FILES);
  const aloneWs = workspace('alone', BUGS);
  const alone = await commandAlone(aloneWs.dir, aloneWs.marks, 5);
  const run = await fixRun('run', BUGS);
  if (run.attempts !== BUGS.length) throw new Error(`expected ${BUGS.length} attempts, got ${run.attempts}.`);
  const own = run.gaps.map((g) => g.gapMs - g.modelMs - alone.npmMs);
  const perAttempt = median(own);
  const fraction = perAttempt / alone.wallMs;
  console.log(`repository: ${FILES.toLocaleString('en-US')} files and a test suite of ${SUITE_FILES + 1} node --test files`);
  console.log(`| figure | ms |`);
  console.log('|---|---|');
  console.log(`| \`npm test\` alone (median of 5, same files, same run) | ${Math.round(alone.wallMs)} |`);
  console.log(`| of which npm around the test runner | ${Math.round(alone.npmMs)} |`);
  console.log(`| Greenloop per attempt: gap between test runs − model − npm (median of ${own.length} attempts; each: ${own.map((x) => Math.round(x)).join(', ')}) | ${Math.round(perAttempt)} |`);
  console.log(`| whole run: ${run.attempts} attempts, ${run.testRuns} test runs | ${run.wallMs} |`);
  await printParts(alone.wallMs);
  console.log(`\nGreenloop per attempt: ${(fraction * 100).toFixed(1)} % of the test command's own time`);
  console.log(`${fraction < 0.05 ? 'MET   ' : 'MISSED'} loop overhead per attempt under 5 % of the test command's own time`);
  if (fraction >= 0.05) process.exitCode = 1;
}

main().catch((err) => {
  console.error((err as Error).message);
  process.exitCode = 2;
});
