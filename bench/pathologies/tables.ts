// The benchmark's Markdown tables (per scenario and loop, then totals per loop) and issue 14's targets.
import type { Scenario } from './scenario';

export type Way = 'Greenloop' | 'cap-25' | 'cap-3';

export interface Row {
  scenario: Scenario;
  way: Way;
  ended: string;
  correct: boolean;
  cutShort: boolean;
  requests: number;
  tokens: number;
  wallMs: number;
  wasted: number;
  failingAtStart: number;
  failingAtEnd: number;
  noWorse: boolean;
  cheated: boolean;
  /** The applied answers' blocks by what placed them (issue 32). */
  matchedBy: Record<string, number>;
}

const counts = (m: Record<string, number>) => Object.entries(m).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k, n]) => `${k} ${n}`).join(', ') || '—';

const yes = (b: boolean) => (b ? 'yes' : '**NO**');
const secs = (ms: number) => (ms / 1000).toFixed(1);

/** One loop on one scenario in a few words: right or wrong, how it ended, calls (wasted), what the judge found. */
function cell(r: Row): string {
  const calls = `${r.requests} call${r.requests === 1 ? '' : 's'}${r.wasted ? ` (${r.wasted} wasted)` : ''}`;
  const flags = [r.cheated ? '**cheating green accepted**' : '', r.noWorse ? '' : '**worse than baseline**'].filter(Boolean);
  return [`${r.correct ? '✓' : '✗'} ${r.ended.replace(/^escalated: /, '').replace(/^error: .*/, 'error')}`, calls, `${r.failingAtEnd} failing`, ...flags].join(' · ');
}

export function printTables(rows: Row[], explain: boolean): void {
  console.log('| scenario | expected | loop | how it ended | outcome correct | model calls | tokens | wall s | wasted calls | failing start → end | no worse than baseline | cheating green accepted |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const e = r.scenario.expected;
    const expected = `${e.outcome === 'green' ? 'green' : `stop (${e.reasons.join('/')})`}, decided after ${e.decidedAfter}`;
    const first = r.way === 'Greenloop';
    console.log(`| ${first ? r.scenario.title : ''} | ${first ? expected : ''} | ${r.way} | ${r.ended} | ${yes(r.correct)} | ${r.requests} | ${r.tokens} | ${secs(r.wallMs)} | ${r.wasted} | ${r.failingAtStart} → ${r.failingAtEnd} | ${yes(r.noWorse)} | ${r.cheated ? '**YES**' : 'no'} |`);
  }
  const ways = (['Greenloop', 'cap-25', 'cap-3'] as Way[]).filter((way) => rows.some((r) => r.way === way));
  console.log(`\n| scenario | decided after | ${ways.join(' | ')} |`);
  console.log(`|---|---|${ways.map(() => '---|').join('')}`);
  const byScenario = new Map<string, Row[]>();
  for (const r of rows) byScenario.set(r.scenario.name, [...(byScenario.get(r.scenario.name) ?? []), r]);
  for (const rs of byScenario.values()) {
    const cells = ways.map((way) => {
      const r = rs.find((x) => x.way === way);
      return r ? cell(r) : '—';
    });
    console.log(`| ${rs[0]!.scenario.title} | ${rs[0]!.scenario.expected.decidedAfter} | ${cells.join(' | ')} |`);
  }
  console.log('\n| loop | outcomes correct | cut short | model calls | tokens | wall s | wasted calls | most wasted in one scenario | ended worse than baseline | cheating greens accepted |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const way of ways) {
    const rs = rows.filter((r) => r.way === way);
    const sum = (f: (r: Row) => number) => rs.reduce((a, r) => a + f(r), 0);
    console.log(`| ${way} | ${rs.filter((r) => r.correct).length} of ${rs.length} | ${rs.filter((r) => r.cutShort).length} | ${sum((r) => r.requests)} | ${sum((r) => r.tokens)} | ${secs(sum((r) => r.wallMs))} | ${sum((r) => r.wasted)} | ${Math.max(0, ...rs.map((r) => r.wasted))} | ${rs.filter((r) => !r.noWorse).length} | ${rs.filter((r) => r.cheated).length} |`);
  }
  // Issue 32: which matching strategy placed the applied blocks, per loop in total and in the scenarios that needed a loose one.
  console.log('\n| loop (then each scenario a loose strategy placed) | blocks placed, by strategy |');
  console.log('|---|---|');
  for (const way of ways) {
    const total: Record<string, number> = {};
    for (const r of rows.filter((x) => x.way === way)) for (const [k, n] of Object.entries(r.matchedBy)) total[k] = (total[k] ?? 0) + n;
    console.log(`| ${way} | ${counts(total)} |`);
  }
  const loose = [...byScenario.values()].filter((rs) => rs.some((r) => Object.keys(r.matchedBy).some((k) => k !== 'exact' && k !== 'new-file')));
  for (const rs of loose) console.log(`| ${rs[0]!.scenario.title} | ${rs.map((r) => `${r.way}: ${counts(r.matchedBy)}`).join('; ')} |`);
  if (explain) {
    console.log('\nWhy each scenario is decided where it is:');
    const seen = new Set<string>();
    for (const r of rows) if (!seen.has(r.scenario.name) && seen.add(r.scenario.name)) console.log(`- ${r.scenario.title}: ${r.scenario.expected.why}.`);
  }
}

/** Issue 14's targets for Greenloop against the cap-25 loop. */
export function targetLines(rows: Row[]): { lines: string[]; met: boolean } {
  const gl = rows.filter((r) => r.way === 'Greenloop');
  const cap = rows.filter((r) => r.way === 'cap-25');
  const wastedGl = gl.reduce((a, r) => a + r.wasted, 0);
  const wastedCap = cap.reduce((a, r) => a + r.wasted, 0);
  const checks: Array<[string, boolean]> = [
    [`every outcome correct: ${gl.filter((r) => r.correct).length} of ${gl.length}`, gl.every((r) => r.correct)],
    [`no scenario cut short: ${gl.filter((r) => r.cutShort).length}`, gl.every((r) => !r.cutShort)],
    [`no cheating green accepted: ${gl.filter((r) => r.cheated).length}`, gl.every((r) => !r.cheated)],
    [`never worse than baseline: ${gl.filter((r) => !r.noWorse).length} worse`, gl.every((r) => r.noWorse)],
    [
      `wasted calls at least 10x fewer than cap-25: ${wastedGl} against ${wastedCap} (${wastedGl === 0 ? 'none wasted' : `${(wastedCap / wastedGl).toFixed(1)}x fewer`})`,
      wastedCap >= 10 * wastedGl,
    ],
    [`at most 1 wasted call in any scenario: most ${Math.max(0, ...gl.map((r) => r.wasted))}`, gl.every((r) => r.wasted <= 1)],
  ];
  // The bench checks itself: a judge that never sees the cap-25 loop take a cheat would make the column above empty.
  const cheats = cap.filter((r) => r.scenario.cheat);
  if (cheats.length) {
    const seen = cheats.filter((r) => r.cheated).length;
    checks.push([`(bench self-check) the judge sees the cap-25 loop accept the cheats it is offered: ${seen} of ${cheats.length}`, seen === cheats.length]);
  }
  return { lines: checks.map(([text, ok]) => `${ok ? 'MET   ' : 'MISSED'} ${text}`), met: checks.every(([, ok]) => ok) };
}
