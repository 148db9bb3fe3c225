// bench:testtime's Markdown: per scenario a row per scope and the minimum the verdicts need, then issue 25's targets.
// The unit "whole-suite runs" is the median whole-suite run of that scenario in this invocation (both scopes), so a
// machine that slows down between scenarios moves the unit with it.
import type { LoopRow } from './loop';
import type { Scenario } from './scenarios';

export interface ScenarioResult {
  scenario: Scenario;
  rows: LoopRow[];
}

const secs = (ms: number | null) => (ms === null ? 'n/a' : (ms / 1000).toFixed(1));
const median = (xs: number[]) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const count = (row: LoopRow, scope: 'full' | 'targeted') => row.runs.filter((t) => t.scope === scope).length;

/**
 * One loop's whole-suite run, ms: the median of the whole-suite runs its attempts list; when it lists none, the test
 * time outside its attempts per run there (the baseline's). Per loop, because the machine's load moves between loops
 * (a whole mathjs suite took 18 s idle and 150 s at load 19 in one invocation). The baseline's run is not in the
 * median: it also carries the type check (the verifier's durationMs includes tsc, which later runs skip when no file
 * tsc sees changed).
 */
export function suiteUnit(row: LoopRow): number | null {
  return median(row.runs.filter((t) => t.scope === 'full').map((t) => t.ms)) ?? (row.unlistedRuns ? row.unlistedMs / row.unlistedRuns : null);
}

/** Whole-suite runs a loop made: those its attempts list, then the baseline and final re-tests outside them. */
export function wholeSuiteRuns(row: LoopRow): { listed: number; unlisted: number } {
  return { listed: count(row, 'full'), unlisted: row.unlistedRuns };
}

const failingCell = (ids: string[]) => (ids.length ? `${ids.length}: ${ids.map((id) => id.replace(/\|/g, '\\|')).join('; ')}` : '0');

const worth = (ms: number | null, unit: number | null) => (ms === null || unit === null ? 'n/a' : (ms / unit).toFixed(2));

export function printScenario(r: ScenarioResult): void {
  console.log(`\n### ${r.scenario.name}\n\`full\` today: ${r.scenario.fullToday} whole-suite runs\n`);
  console.log('| scope | outcome | final failing | verdicts | whole-suite runs | targeted runs (s) | test s | one whole suite s | × whole suite | loop wall s |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const row of r.rows) {
    const unit = suiteUnit(row);
    const targeted = row.runs.filter((t) => t.scope === 'targeted');
    const targetedMs = targeted.reduce((a, t) => a + t.ms, 0);
    const w = wholeSuiteRuns(row);
    const suites = w.unlisted ? `${w.listed + w.unlisted} (${w.listed} in attempts + ${w.unlisted} outside them, ${secs(row.unlistedMs)} s)` : `${w.listed}`;
    console.log(`| ${row.scope} | ${row.outcome} | ${failingCell(row.finalFailing)} | ${row.verdicts.join(', ') || '—'} | ${suites} | ${targeted.length} (${secs(targetedMs)}) | ${secs(row.testMs)} | ${secs(unit)} | ${worth(row.testMs, unit)} | ${secs(row.wallMs)} |`);
  }
  const m = r.scenario.minimum;
  const ff = r.rows.find((row) => row.scope === 'failing-first');
  const targetedMean = ff && count(ff, 'targeted') ? ff.runs.filter((t) => t.scope === 'targeted').reduce((a, t) => a + t.ms, 0) / count(ff, 'targeted') : null;
  const unit = ff ? suiteUnit(ff) : null;
  const minMs = unit === null || targetedMean === null ? null : m.full * unit + m.targeted * targetedMean;
  console.log(`| minimum the verdicts need (failing-first's whole suite) | | | | ${m.full} | ${m.targeted} | ${minMs === null ? 'n/a' : `≈ ${secs(minMs)}`} | ${secs(unit)} | ${worth(minMs, unit)} | |`);
  for (const row of r.rows) {
    console.log(`\n${row.scope}: baseline and final re-tests ${secs(row.unlistedMs)} s (${row.unlistedRuns} whole-suite run(s)); attempts — ${row.sequence.join(' · ') || 'none'}`);
    for (const note of row.notes) console.log(`note (${row.scope}): ${note}`);
  }
}

/** Issue 25's targets for one scenario: each as a line starting PASS or FAIL. */
export function targetLines(r: ScenarioResult): { lines: string[]; met: boolean } {
  const full = r.rows.find((row) => row.scope === 'full');
  const ff = r.rows.find((row) => row.scope === 'failing-first');
  const checks: Array<[string, boolean]> = [];
  const t = r.scenario.target;
  if (!ff) checks.push(['failing-first was not measured (the CLI has no --verify-scope: merge issue 25\'s loop first)', false]);
  else if (t.kind === 'ratio') {
    const ratio = full?.testMs && ff.testMs !== null ? ff.testMs / full.testMs : null;
    const suites = (row: LoopRow) => `${count(row, 'full') + row.unlistedRuns} whole-suite + ${count(row, 'targeted')} targeted`;
    checks.push([`test time failing-first / full: ${ratio === null ? 'n/a' : ratio.toFixed(2)} (target ≤ ${t.max}); runs ${suites(ff)} against ${full ? suites(full) : 'n/a'}`, ratio !== null && ratio <= t.max]);
  } else {
    const unit = suiteUnit(ff);
    const runs = ff.testMs !== null && unit ? ff.testMs / unit : null;
    checks.push([`failing-first test time: ${runs === null ? 'n/a' : runs.toFixed(2)} whole-suite runs (target ≤ ${t.max})`, runs !== null && runs <= t.max]);
  }
  if (full && ff) {
    checks.push([`same outcome: ${full.outcome} / ${ff.outcome}`, full.outcome === ff.outcome]);
    checks.push([`same final failing set: ${full.finalFailing.length} / ${ff.finalFailing.length}`, same(full.finalFailing, ff.finalFailing)]);
  }
  for (const row of r.rows) {
    const e = r.scenario.expected;
    checks.push([`${row.scope}: ended ${row.outcome} with ${row.finalFailing.length} failing (expected ${e.outcome} with ${e.failing})`, row.outcome.startsWith(e.outcome) && row.finalFailing.length === e.failing]);
    // The report's word is checked by mocha itself on the tests of every edited function.
    checks.push([`${row.scope}: mocha on combinatorics/ finds ${row.judgeFailing.length} failing at the end, the report ${row.finalFailing.length}`, same(row.judgeFailing, row.finalFailing)]);
    if (row.extraRequests) checks.push([`${row.scope}: the loop asked the model ${row.extraRequests} more time(s) than the scenario has answers`, false]);
  }
  return { lines: checks.map(([text, ok]) => `${ok ? 'PASS' : 'FAIL'} ${r.scenario.key}: ${text}`), met: checks.every(([, ok]) => ok) };
}

function same(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
