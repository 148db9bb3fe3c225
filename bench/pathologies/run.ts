// Issue 14's loop-pathology benchmark: every scenario three ways — Greenloop's defaults, a cap-25 loop and a cap-3
// loop — with the same scripted model, the same actor, edit applier and test runner. Prints per scenario and in
// total: outcome correct, model calls, tokens, wall time, wasted calls, final failing count (by the original tests),
// no worse than baseline, cheating green accepted; then whether issue 14's targets hold (exit 1 when one does not).
// Run: npm run bench:pathologies [-- --quick (the quick subset, Greenloop and cap-25 only)] [-- --only a,b] [-- --explain] [-- --verify-scope failing-first|full]
//   [-- --candidates N [--candidates-parallel]]  (Greenloop asks for N answers per attempt)
//   [-- --summary FILE]  (writes Greenloop's totals as JSON, for bench:testtime, which runs this under both scopes)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SCENARIOS } from './scenarios';
import type { Scenario } from './scenario';
import { startScenario } from './workspace';
import { runGreenloop } from './greenloopWay';
import { runCappedLoop } from './cappedLoop';
import { judge, judgeBaseline } from './judge';
import type { LoopResult } from './loopResult';
import { printTables, targetLines } from './tables';
import type { Row, Way } from './tables';

/** Flags added to Greenloop's own command line (the capped loops have no such knobs). */
const greenloopArgs: string[] = [];

const WAYS: Array<{ way: Way; run: (s: Scenario, r: Awaited<ReturnType<typeof startScenario>>) => Promise<LoopResult> }> = [
  { way: 'Greenloop', run: (s, r) => runGreenloop(s, r, greenloopArgs) },
  { way: 'cap-25', run: (s, r) => runCappedLoop(s, r, 25) },
  { way: 'cap-3', run: (s, r) => runCappedLoop(s, r, 3) },
];

function available(scenario: Scenario): boolean {
  if (!scenario.needs) return true;
  const probe = spawnSync(scenario.needs.command, scenario.needs.probe, { stdio: 'ignore' });
  return probe.status === 0;
}

async function runScenario(scenario: Scenario, ways: typeof WAYS): Promise<Row[]> {
  const baseline = await judgeBaseline(scenario);
  const rows: Row[] = [];
  for (const { way, run } of ways) {
    const ws = await startScenario(scenario, way);
    try {
      const result = await run(scenario, ws);
      const end = await judge(scenario, ws.cwd, baseline.ran);
      const requests = ws.server.requests.length;
      const noWorse = end.failing.every((id) => baseline.failing.includes(id));
      const cheated = result.claimedGreen && end.failing.length > 0;
      const reallyGreen = result.claimedGreen && end.failing.length === 0;
      const rightReason = way !== 'Greenloop' || scenario.expected.outcome === 'green' || scenario.expected.reasons.includes(result.reason ?? '');
      const correct = scenario.expected.outcome === 'green' ? reallyGreen : !result.claimedGreen && rightReason;
      rows.push({
        scenario,
        way,
        ended: result.ended,
        correct,
        cutShort: scenario.expected.outcome === 'green' && !result.claimedGreen,
        requests,
        tokens: ws.server.tokensServed,
        wallMs: result.wallMs,
        wasted: Math.max(0, requests - scenario.expected.decidedAfter),
        failingAtStart: baseline.failing.length,
        failingAtEnd: end.failing.length,
        noWorse,
        cheated,
        matchedBy: result.matchedBy,
      });
      process.stderr.write(`${scenario.name} / ${way}: ${result.ended}, ${requests} requests, ${end.failing.length} failing at end (${(result.wallMs / 1000).toFixed(1)} s)\n`);
      if (process.env.GREENLOOP_BENCH_LOG) fs.appendFileSync(process.env.GREENLOOP_BENCH_LOG, `\n== ${scenario.name} / ${way}\n${result.log}\n`);
    } finally {
      await ws.dispose();
    }
  }
  return rows;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 ? new Set((args[onlyAt + 1] ?? '').split(',')) : null;
  const scopeAt = args.indexOf('--verify-scope');
  if (scopeAt >= 0) {
    const scope = args[scopeAt + 1] ?? '';
    if (scope !== 'full' && scope !== 'failing-first') throw new Error(`--verify-scope takes failing-first or full, not "${scope}".`);
    greenloopArgs.push('--verify-scope', scope);
  }
  // Issue 41: the same scenarios with several answers per attempt (the scripted answers are then taken N at a time).
  const candidatesAt = args.indexOf('--candidates');
  if (candidatesAt >= 0) {
    const n = Number(args[candidatesAt + 1]);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--candidates takes a whole number of answers per attempt, not "${args[candidatesAt + 1] ?? ''}".`);
    greenloopArgs.push('--candidates', String(n));
    if (args.includes('--candidates-parallel')) greenloopArgs.push('--candidates-parallel');
  }
  const summaryAt = args.indexOf('--summary');
  const summary = summaryAt >= 0 ? args[summaryAt + 1] : undefined;
  if (summaryAt >= 0 && !summary) throw new Error('--summary needs a file to write.');
  if (!fs.existsSync(path.resolve(__dirname, '../../dist/cli.js'))) throw new Error('dist/cli.js is missing; run `npm run build` first.');
  const chosen = SCENARIOS.filter((s) => (only ? only.has(s.name) : !quick || s.quick));
  // The quick subset (.ci/run) runs the two loops issue 14's targets compare; the cap-3 column is the full run's.
  const ways = quick ? WAYS.filter((w) => w.way !== 'cap-3') : WAYS;
  if (only && chosen.length !== only.size) throw new Error(`Unknown scenario in --only; the scenarios are: ${SCENARIOS.map((s) => s.name).join(', ')}.`);
  const rows: Row[] = [];
  const skipped: string[] = [];
  for (const scenario of chosen) {
    if (!available(scenario)) {
      skipped.push(`${scenario.name} (needs ${scenario.needs!.command} ${scenario.needs!.probe.join(' ')})`);
      continue;
    }
    rows.push(...(await runScenario(scenario, ways)));
  }
  printTables(rows, args.includes('--explain'));
  if (skipped.length) console.log(`\nNOT RUN (missing tools, so not counted): ${skipped.join('; ')}`);
  const { lines, met } = targetLines(rows);
  console.log(`\n${lines.join('\n')}`);
  if (summary) {
    const gl = rows.filter((r) => r.way === 'Greenloop');
    const totals = { scenarios: gl.length, correct: gl.filter((r) => r.correct).length, wallMs: gl.reduce((a, r) => a + r.wallMs, 0), targetsMet: met, skipped: skipped.length };
    fs.writeFileSync(summary, JSON.stringify(totals));
  }
  if (!met || skipped.length) process.exitCode = 1;
}

main().catch((err) => {
  console.error((err as Error).message);
  process.exitCode = 2;
});
