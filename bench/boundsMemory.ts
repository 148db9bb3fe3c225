// Table 4 of bench/bounds.bench.ts: the peak memory of `greenloop fix` when every test run prints 200 MB (the
// calc-loud fixture: 5,000 logging tests and the calc tests run for real), next to `greenloop verify` reading the same
// output once and a bare node, measured in the same run. The fix goes through a regression (and the re-run that
// checks it is not a flaky test), progress, and green (and the run that confirms it): six runs of 200 MB.
import * as fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { startFakeOpenAIServer } from '../test/support/fakeOpenAIServer';
import { answer, BREAK_NEG, FIX_ADD, FIX_MUL } from '../test/support/calcAnswers';
import { tempDir, tempProject } from '../test/unit/support/cli';
import { runCliMeasured } from '../test/unit/support/peakRss';

const MB = Number(process.env.BENCH_OUTPUT_MB ?? 200);
const TESTS = 5000;

export async function memoryTable(): Promise<void> {
  console.log(`\n4. Peak memory with ${MB} MB of test output per run (${TESTS.toLocaleString('en-US')} tests logging; peak RSS of the greenloop process itself)`);
  console.log('run                                                        | seconds | peak RSS MB | vs verify');
  console.log('-----------------------------------------------------------|---------|-------------|----------');
  const env = { LOUD_MB: String(MB), LOUD_TESTS: String(TESTS) };
  const bare = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.resourceUsage().maxRSS))'], { encoding: 'utf8' });
  const bareMb = Math.round(Number(bare.stdout) / 1024);
  const project = tempProject('calc-loud');
  const stateDir = tempDir('state');
  const server = await startFakeOpenAIServer([answer(BREAK_NEG), answer(FIX_ADD), answer(FIX_MUL)]);
  try {
    let t0 = performance.now();
    const verify = await runCliMeasured(['verify', '--cwd', project, '--tsc', 'off'], { env, timeoutMs: 1_800_000 });
    const verifyS = (performance.now() - t0) / 1000;
    t0 = performance.now();
    const fix = await runCliMeasured(
      ['fix', '--cwd', project, '--actor', 'openai', '--base-url', server.url, '--model', 'bench', '--no-stream', '--tsc', 'off', '--state-dir', stateDir, '--patience', '3', '--json'],
      { env, timeoutMs: 1_800_000 },
    );
    const fixS = (performance.now() - t0) / 1000;
    const report = JSON.parse(fix.stdout) as { outcome: string; iterations: Array<{ verdict: string }> };
    const verdicts = report.iterations.map((i) => i.verdict).join(', ');
    const row = (name: string, s: number | null, mb: number) =>
      console.log(`${name.padEnd(58)} | ${(s === null ? '' : s.toFixed(1)).padStart(7)} | ${String(mb).padStart(11)} | ${(mb / verify.peakMb).toFixed(2).padStart(8)}×`);
    row('bare node (baseline)', null, bareMb);
    row('greenloop verify, one run (baseline)', verifyS, verify.peakMb);
    row(`greenloop fix, 6 runs: ${verdicts} → ${report.outcome}`, fixS, fix.peakMb);
  } finally {
    await server.close();
    fs.rmSync(project, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}
