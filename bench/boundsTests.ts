// Table 5 of bench/bounds.bench.ts (issue 30): memory follows the tests, not the lines of output. The peak resident
// set of `greenloop fix` itself, each run next to the same run on a small output measured just before it:
//   - 200 MB of TAP lines that all name one test (`yes 'ok 1 - line of output' | head -c …`, --max-iterations 1):
//     2,442 MB before; must hold 200 MB;
//   - 1,000,000 distinct passing tests (test/fixtures/projects/many-tests): an attempt stops running one of them,
//     which must be named missing, then one keeps them all and goes green; 1,154 MB before; must hold 500 MB.
// BENCH_FLOOD_MB and BENCH_TESTS make them smaller.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir, tempProject } from '../test/unit/support/cli';
import { runCliMeasured } from '../test/unit/support/peakRss';
import type { MeasuredRun } from '../test/unit/support/peakRss';

const FLOOD_MB = Number(process.env.BENCH_FLOOD_MB ?? 200);
const TESTS = Number(process.env.BENCH_TESTS ?? 1_000_000);
const AGENT = path.join(__dirname, '..', 'test', 'unit', 'support', 'dropOneTestAgent.js');
const UNTESTED = 777;

interface Row {
  name: string;
  seconds: number;
  peakMb: number;
  vs?: number;
  boundMb?: number;
  outcome: string;
}

/** One `greenloop fix` on a fresh copy of the many-tests fixture (a git repository), timed and measured. */
async function fix(args: string[], env: NodeJS.ProcessEnv): Promise<{ run: MeasuredRun; seconds: number; report: Report }> {
  const project = tempProject('many-tests');
  const stateDir = tempDir('state');
  try {
    const t0 = performance.now();
    const run = await runCliMeasured(['fix', '--cwd', project, '--tsc', 'off', '--state-dir', stateDir, '--json', ...args], { env, timeoutMs: 1_800_000 });
    const seconds = (performance.now() - t0) / 1000;
    let report: Report;
    try {
      report = JSON.parse(run.stdout) as Report;
    } catch {
      throw new Error(`greenloop fix printed no report (exit ${run.code}): ${run.stderr.slice(-500)}`);
    }
    return { run, seconds, report };
  } finally {
    fs.rmSync(project, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}

interface Report {
  outcome: string;
  baseline: { failing: string[] };
  iterations: Array<{ verdict: string; ran: number | null; missing?: string[] }>;
}

async function flood(mb: number): Promise<{ seconds: number; peakMb: number; outcome: string }> {
  const bytes = Math.round(mb * 1_000_000);
  const command = `{ yes 'ok 1 - line of output' | head -c ${bytes}; echo; echo 'not ok 2 - the last line'; }; exit 1`;
  const { run, seconds, report } = await fix(['--test-cmd', command, '--actor', 'command', '--actor-cmd', 'true', '--max-iterations', '1'], {});
  const read = report.baseline.failing.join() === 'the last line' ? 'read to its last line' : `baseline failing ${JSON.stringify(report.baseline.failing)}`;
  return { seconds, peakMb: run.peakMb, outcome: `${report.outcome}, ${read}` };
}

async function distinct(tests: number): Promise<{ seconds: number; peakMb: number; outcome: string }> {
  const { run, seconds, report } = await fix(
    ['--test-cmd', 'node tap.js', '--actor', 'command', '--actor-cmd', `node "${AGENT}"`, '--max-iterations', '3'],
    { TESTS: String(tests), UNTESTED: String(UNTESTED) },
  );
  const expected = `module ${UNTESTED % 997} > parses record ${UNTESTED}`;
  const missing = report.iterations[0]?.missing ?? [];
  const named = missing.length === 1 && missing[0] === expected ? `missing named exactly (\`${expected}\`)` : `missing ${JSON.stringify(missing)}`;
  const verdicts = report.iterations.map((i) => i.verdict).join(', ');
  return { seconds, peakMb: run.peakMb, outcome: `${verdicts} → ${report.outcome}; ${named}; ran ${report.iterations.at(-1)?.ran ?? '?'}` };
}

export async function testsTable(): Promise<void> {
  console.log('\n5. Memory follows the tests, not the lines of output (peak RSS of the greenloop process itself; each run next to the same run on a small output)');
  console.log('run                                                                    | seconds | peak RSS MB | vs small | bound MB | holds');
  console.log('-----------------------------------------------------------------------|---------|-------------|----------|----------|------');
  const rows: Row[] = [];
  const smallFlood = await flood(0.001);
  rows.push({ name: 'fix on 1 KB of the same TAP lines (baseline)', ...smallFlood });
  const big = await flood(FLOOD_MB);
  rows.push({ name: `fix on ${FLOOD_MB} MB of TAP lines naming one test`, ...big, vs: big.peakMb / smallFlood.peakMb, boundMb: 200 });
  const smallSuite = await distinct(10_000);
  rows.push({ name: 'fix on 10,000 distinct tests, one goes missing, then green (baseline)', ...smallSuite });
  const suite = await distinct(TESTS);
  rows.push({ name: `fix on ${TESTS.toLocaleString('en-US')} distinct tests, one goes missing, then green`, ...suite, vs: suite.peakMb / smallSuite.peakMb, boundMb: 500 });
  let missed = false;
  for (const r of rows) {
    const holds = r.boundMb === undefined ? '' : r.peakMb <= r.boundMb ? 'yes' : 'NO';
    if (holds === 'NO') missed = true;
    console.log(`${r.name.padEnd(70)} | ${r.seconds.toFixed(1).padStart(7)} | ${String(r.peakMb).padStart(11)} | ${(r.vs === undefined ? '' : `${r.vs.toFixed(2)}×`).padStart(8)} | ${String(r.boundMb ?? '').padStart(8)} | ${holds}`);
  }
  for (const r of rows) console.log(`  ${r.name}: ${r.outcome}`);
  if (missed) process.exitCode = 1;
}
