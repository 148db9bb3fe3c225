// npm run bench:candidates — several answers per attempt against one, at the same token budget. For each case
// (cases.ts) the real `greenloop fix` runs with --candidates 1, 3 and 5 against a scripted model (model.ts): answers
// drawn with a fixed seed from a stated mix, each served after LATENCY_MS, concurrent requests concurrently. N = 1 gets
// three times the attempts N = 3 gets (patience as large, so only the budgets and the guards stop it); N = 5 the
// attempts of N = 3. Every run that says green is checked by running the project's whole test command once more.
//   -- --only ID,…   cases to run      -- --latency MS (default 5000)      -- --jobs N cases at once (default 3)
//   -- --seed N (default 41)           -- --no-write (print the table, leave docs/benchmarks.md alone)
//   -- --parallel                      N > 1 judges its candidates side by side in copies (--candidates-parallel)
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startFakeOpenAIServer } from '../../test/support/fakeOpenAIServer';
import { answer, draw, MIX, type Kind } from './model';
import { rng } from '../context/mutate';
import { caseIds, prepare } from './cases';

const ROOT = path.resolve(__dirname, '../..');
// GREENLOOP_BENCH_CLI: a copy of the bundle, so a rebuild while the bench runs does not change what it measures.
const CLI = process.env.GREENLOOP_BENCH_CLI ?? path.join(ROOT, 'dist', 'cli.js');
const NS = [1, 3, 5];
const ATTEMPTS: Record<number, number> = { 1: 9, 3: 3, 5: 3 };
const MAX_TOKENS = 120_000;

interface Args { only: string[]; latency: number; jobs: number; seed: number; write: boolean; parallel: boolean }

function parseArgs(argv: string[]): Args {
  const a: Args = { only: [], latency: 5000, jobs: 3, seed: 41, write: true, parallel: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--only') a.only = argv[++i]!.split(',');
    else if (argv[i] === '--latency') a.latency = Number(argv[++i]);
    else if (argv[i] === '--jobs') a.jobs = Number(argv[++i]);
    else if (argv[i] === '--seed') a.seed = Number(argv[++i]);
    else if (argv[i] === '--no-write') a.write = false;
    else if (argv[i] === '--parallel') a.parallel = true;
    else throw new Error(`Unknown option ${argv[i]}; see the head of bench/candidates/run.ts.`);
  }
  return a;
}

interface Row {
  id: string; n: number; outcome: string; reason: string | null; fixed: boolean; calls: number; requests: number; tokens: number;
  wallMs: number; testMs: number; attemptMs: number; attempts: number; kinds: Partial<Record<Kind, number>>; rejectedByWholeSuite: boolean;
}

function sh(cmd: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => execFile(cmd, args, { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, CI: '1', NO_COLOR: '1' } }, (err, stdout, stderr) =>
    resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr })));
}

async function runOne(id: string, index: number, n: number, args: Args): Promise<Row> {
  const p = await prepare(id);
  // The same stream of answers for every N: N = 3's one attempt sees the answers N = 1 sees over three.
  const random = rng(args.seed * 1000 + index);
  const kinds: Partial<Record<Kind, number>> = {};
  let i = 0;
  const server = await startFakeOpenAIServer([], {
    countUsage: true,
    // A request with `n` gets n choices in one reply, as OpenAI's endpoint (and vLLM's) answers it.
    respond: (request) => {
      const one = () => {
        const kind = draw(random);
        kinds[kind] = (kinds[kind] ?? 0) + 1;
        return answer(p.c, p.cwd, kind, ++i);
      };
      const [content, ...more] = Array.from({ length: Math.max(1, Number(request.body?.n) || 1) }, one);
      return { content: content!, more, delayMs: args.latency };
    },
  });
  const stateDir = fs.mkdtempSync(path.join(path.dirname(p.cwd), 'state-'));
  try {
    const started = Date.now();
    const res = await sh(process.execPath, [CLI, 'fix', '--cwd', p.cwd, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream', '--json',
      '--state-dir', stateDir, '--test-cmd', p.testCmd, '--tsc', 'off', '--autofix', 'off', '--ignore-history', '--candidates', String(n),
      '--max-iterations', String(ATTEMPTS[n]), '--patience', String(ATTEMPTS[n]), '--max-tokens', String(MAX_TOKENS),
      ...(args.parallel && n > 1 ? ['--candidates-parallel'] : [])], p.cwd);
    const wallMs = Date.now() - started;
    let report: any = {};
    try { report = JSON.parse(res.stdout); } catch { report = { outcome: 'no report', reason: res.stderr.trim().split('\n').pop() }; }
    const green = report.outcome === 'green';
    // Kept and green by Greenloop, but not by the project's own whole test command: what must never happen.
    const whole = green ? await sh('bash', ['-c', p.testCmd], p.cwd) : { code: 0 };
    return {
      id, n, outcome: report.outcome, reason: report.reason ?? null, fixed: green && whole.code === 0, calls: report.llmCalls ?? 0, requests: report.requests ?? 0,
      tokens: (report.tokens?.prompt ?? 0) + (report.tokens?.completion ?? 0), wallMs, testMs: report.testMs ?? 0,
      // The attempts alone: the wall time less what every run spends the same whatever N (start, baseline, coverage, end).
      attemptMs: (report.iterations ?? []).reduce((a: number, it: { durationMs?: number }) => a + (it.durationMs ?? 0), 0),
      attempts: (report.iterations ?? []).filter((it: { actor?: string }) => it.actor !== 'autofix').length, kinds, rejectedByWholeSuite: green && whole.code !== 0,
    };
  } finally {
    await server.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
    p.dispose();
  }
}

async function pool<T>(items: T[], jobs: number, fn: (t: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
  }));
}

function table(rows: Row[], args: Args, cases: number): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
  const lines = [
    `| N | attempts allowed | bugs fixed (of ${cases}) | model calls | requests | tokens | wall time | of it in attempts | test time | kept but failing the whole suite |`,
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const n of NS) {
    const r = rows.filter((x) => x.n === n);
    const sum = (f: (x: Row) => number) => r.reduce((a, x) => a + f(x), 0);
    lines.push(`| ${n} | ${ATTEMPTS[n]} | ${sum((x) => Number(x.fixed))} | ${sum((x) => x.calls)} | ${sum((x) => x.requests)} | ${sum((x) => x.tokens).toLocaleString('en-US')} | ${s(sum((x) => x.wallMs))} | ${s(sum((x) => x.attemptMs))} | ${s(sum((x) => x.testMs))} | ${sum((x) => Number(x.rejectedByWholeSuite))} |`);
  }
  const mix = MIX.map(([k, p]) => `${k} ${p} %`).join(', ');
  return [
    `Seed ${args.seed}, latency ${args.latency / 1000} s per answer, ${args.parallel ? 'N > 1 with --candidates-parallel (candidates judged side by side in copies)' : 'candidates judged one after another'}, token budget ${MAX_TOKENS.toLocaleString('en-US')} for every N, ${args.jobs} cases at once (wall and test time are summed over cases, and the machine was shared). Mix: ${mix}.`,
    '',
    ...lines,
    '',
    'Per case (outcome and reason, attempts used):',
    '',
    '| case | N = 1 | N = 3 | N = 5 |',
    '|---|---|---|---|',
    ...[...new Set(rows.map((r) => r.id))].map((id) => `| ${id} | ${NS.map((n) => {
      const r = rows.find((x) => x.id === id && x.n === n);
      return r ? `${r.outcome}${r.reason ? ` (${r.reason})` : ''}, ${r.attempts} att., ${(r.wallMs / 1000).toFixed(0)} s` : '—';
    }).join(' | ')} |`),
  ].join('\n');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const all = await caseIds();
  const ids = all.filter((id) => !args.only.length || args.only.includes(id));
  const rows: Row[] = [];
  await pool(ids.flatMap((id) => NS.map((n) => ({ id, n }))), args.jobs, async ({ id, n }) => {
    const row = await runOne(id, all.indexOf(id), n, args);
    rows.push(row);
    console.log(`${id.padEnd(22)} N=${n}: ${row.outcome}${row.reason ? ` (${row.reason})` : ''}, ${row.attempts} attempts, ${row.calls} calls, ${row.tokens} tokens, ${(row.wallMs / 1000).toFixed(1)} s (tests ${(row.testMs / 1000).toFixed(1)} s)${row.rejectedByWholeSuite ? ' — GREEN BUT THE WHOLE SUITE FAILS' : ''}`);
  });
  rows.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id) || a.n - b.n);
  const text = table(rows, args, ids.length);
  console.log(`\n${text}`);
  fs.writeFileSync(path.join(ROOT, 'dist', 'bench-candidates.json'), JSON.stringify(rows, null, 1));
  if (args.write && !args.only.length) writeDocs(text);
}

const BEGIN = '<!-- bench:candidates begin -->';
const END = '<!-- bench:candidates end -->';

function writeDocs(text: string): void {
  const file = path.join(ROOT, 'docs', 'benchmarks.md');
  const doc = fs.readFileSync(file, 'utf8');
  const section = `${BEGIN}\n${text}\n${END}`;
  const next = doc.includes(BEGIN) ? doc.replace(new RegExp(`${BEGIN}[\\s\\S]*?${END}`), section)
    : `${doc.replace(/\s*$/, '')}\n\n## Several candidates per attempt (bench:candidates, issue 41)\n\n${section}\n`;
  fs.writeFileSync(file, next);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
