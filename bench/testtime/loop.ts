// One loop of bench:testtime: `greenloop fix` (the built CLI) on a fresh workspace under one verify scope, then what
// its report says the tests cost, and what an independent run of the edited functions' tests says of the end state.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runFix } from '../pathologies/greenloopWay';
import { CommandVerifier } from '../../src/verify/commandVerifier';
import { startScriptedModel } from './model';
import { BENCH_TEST_COMMAND } from './scenarios';
import type { Scenario } from './scenarios';
import { startWorkspace } from './workspace';

export type Scope = 'full' | 'failing-first';

export interface TestRun {
  scope: 'targeted' | 'full';
  tests: number;
  ms: number;
}

interface Report {
  outcome?: string;
  reason?: string | null;
  final?: { failing?: string[] } | null;
  baseline?: { failing?: string[]; testRuns?: TestRun[] } | null;
  iterations?: Array<{ n: number; verdict: string; testRuns?: TestRun[] }>;
  testRuns?: TestRun[];
  testMs?: number;
  warnings?: string[];
}

export interface LoopRow {
  scope: Scope;
  outcome: string;
  finalFailing: string[];
  /** Every test run the report lists, in order (baseline's first when the report lists it). */
  runs: TestRun[];
  /** The report's total test time; null when it has none (a build without issue 25's fields). */
  testMs: number | null;
  /** Test time no listed run accounts for: the baseline's run and final re-tests (the report lists neither). */
  unlistedMs: number;
  /** Whole-suite runs outside every attempt: the baseline, and each final re-test the report warns of. */
  unlistedRuns: number;
  /** Each attempt's runs in order, e.g. "2: targeted 2 tests 1.2 s, full 6664 tests 18.0 s". */
  sequence: string[];
  wallMs: number;
  verdicts: string[];
  /** Model requests beyond the scenario's answers. */
  extraRequests: number;
  /** What mocha says of test/unit-tests/function/combinatorics (every edited function's tests) at the end. */
  judgeFailing: string[];
  /** Why a figure is missing or doubtful, in words. */
  notes: string[];
}

/** The folder whose tests cover every function the scenarios edit (and nothing else calls stirlingS2). */
const JUDGE_COMMAND = 'npx mocha test/unit-tests/function/combinatorics';

export async function runLoop(pristine: string, scenario: Scenario, scope: Scope, scopeFlag: boolean): Promise<LoopRow> {
  const ws = startWorkspace(pristine, scenario, scope);
  const model = await startScriptedModel(scenario.answers, ws.cwd, pristine);
  try {
    // Budgets wide enough that only the verdicts end the loop on a busy machine (a whole suite took 138 s at load 15).
    const args = ['--cwd', ws.cwd, '--actor', 'openai', '--base-url', model.server.url, '--model', 'scripted', '--state-dir', path.join(ws.dir, 'state'),
      '--json', '--test-cmd', BENCH_TEST_COMMAND, '--max-minutes', '180', '--verify-timeout-s', '1200'];
    if (scopeFlag) args.push('--verify-scope', scope);
    const fix = await runFix(args);
    if (process.env.GREENLOOP_BENCH_LOG) fs.appendFileSync(process.env.GREENLOOP_BENCH_LOG, `\n== ${scenario.name} / ${scope}\n${fix.stderr}\nreport: ${fix.stdout.trim()}\n`);
    let report: Report;
    try {
      report = JSON.parse(fix.stdout) as Report;
    } catch {
      throw new Error(`greenloop fix printed no report for ${scenario.key}/${scope} (exit ${fix.code}): ${fix.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    }
    const notes: string[] = [];
    const baselineRuns = report.baseline?.testRuns ?? report.testRuns ?? [];
    const runs = [...baselineRuns, ...(report.iterations ?? []).flatMap((it) => it.testRuns ?? [])];
    const listed = runs.reduce((a, r) => a + r.ms, 0);
    const testMs = typeof report.testMs === 'number' ? report.testMs : null;
    if (testMs === null) notes.push('the report has no testMs (this build predates issue 25)');
    if (!runs.length) notes.push('the report lists no testRuns');
    const finalRetests = (report.warnings ?? []).filter((w) => /final state was tested again/.test(w)).length;
    const unlistedRuns = (report.baseline ? 1 : 0) + finalRetests;
    const sequence = (report.iterations ?? []).map((it) => `${it.n}: ${(it.testRuns ?? []).map((t) => `${t.scope} ${t.tests} tests ${(t.ms / 1000).toFixed(1)} s`).join(', ') || 'no test run'}`);
    if (finalRetests) notes.push(`${finalRetests} final re-test(s) of the whole suite (the report's warnings)`);
    if (fix.stderr.includes('found') && /broken with attempt \d+'s edit/.test(fix.stderr)) notes.push('a whole-suite run found a regression an earlier attempt\'s edit hid, and the attempt was judged again on the best state');
    const judged = await new CommandVerifier({ cwd: ws.cwd, testCommand: JUDGE_COMMAND, tsc: 'off', timeoutMs: 600_000 }).verify();
    return {
      scope,
      outcome: `${report.outcome ?? 'error'}${report.reason ? ` (${report.reason})` : ''}`,
      finalFailing: [...(report.final?.failing ?? [])].sort(),
      runs,
      testMs,
      unlistedMs: testMs === null ? 0 : Math.max(0, testMs - listed),
      unlistedRuns,
      sequence,
      wallMs: fix.wallMs,
      verdicts: (report.iterations ?? []).map((it) => it.verdict),
      extraRequests: model.extra(),
      judgeFailing: [...judged.failing].sort(),
      notes,
    };
  } finally {
    await model.server.close();
    ws.dispose();
  }
}
