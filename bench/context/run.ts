// npm run bench:context — does the model see the bug? For each injected single-line bug (bugs.ts) in a real project
// (projects.ts), the real `greenloop fix` runs once with --max-iterations 1 against a scripted model that answers no
// edit; its first prompt is captured and the wrong line looked for in the prompt's code (measure.ts). The same bugs
// run through today's CLI too (a build of --baseline REF, default the commit issue 31 started from), in the same run.
//   -- --only NAME,…        projects (or bug ids) to run
//   -- --baseline REF       the commit whose CLI is "today" (default below); --no-baseline runs only this checkout
//   -- --verify             only check that each bug makes a test fail and the pristine project passes (no CLI)
//   -- --json FILE          every bug's figures as JSON, written after each bug (default: in the bench cache)
//   -- --resume             keep the bugs already in that file (same ids) and measure the rest: a long run can stop
//   -- --table              print the table of that file and measure nothing
//   -- --prompts DIR        keep each captured first prompt (and the CLI's stderr) there, one file per bug and CLI
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUGS, type Bug } from './bugs';
import { PROJECTS, type Project } from './projects';
import { measure } from './measure';
import { startWorkspace, wrongLine, CACHE } from './workspace';
import { startFakeOpenAIServer } from '../../test/support/fakeOpenAIServer';
import { baselineCli } from './baselineCli';

const ROOT = path.resolve(__dirname, '../..');
/** main when issue 31's work began: its prompt builder is "today's". */
export const BASELINE_COMMIT = '32f8b10';

interface Args { only: string[]; baseline: string | null; verify: boolean; json: string; resume: boolean; tableOnly: boolean; prompts: string | null }

function parseArgs(argv: string[]): Args {
  const args: Args = { only: [], baseline: BASELINE_COMMIT, verify: false, json: path.join(CACHE, 'results.json'), resume: false, tableOnly: false, prompts: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--only') args.only = argv[++i].split(',');
    else if (a === '--baseline') args.baseline = argv[++i];
    else if (a === '--no-baseline') args.baseline = null;
    else if (a === '--verify') args.verify = true;
    else if (a === '--json') args.json = argv[++i];
    else if (a === '--resume') args.resume = true;
    else if (a === '--table') args.tableOnly = true;
    else if (a === '--prompts') args.prompts = argv[++i];
    else throw new Error(`Unknown option ${a}; see the head of bench/context/run.ts.`);
  }
  return args;
}

function sh(cmd: string, cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', cmd], { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, CI: '1', NO_COLOR: '1' } }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }));
  });
}

/** `failing`: tests failing and type errors at the run's baseline; `unloaded`: test files that did not load there. */
interface Shown { found: boolean; tokens: number; failing: number; unloaded?: number; outcome: string }

/** One `greenloop fix` run of `cli` on the bug's workspace; the first prompt measured. */
async function firstPrompt(cli: string, p: Project, bug: Bug, keep: string | null): Promise<Shown> {
  let ws: ReturnType<typeof startWorkspace>;
  try {
    ws = startWorkspace(p, bug);
  } catch (err) {
    return { found: false, tokens: 0, failing: 0, outcome: `no prompt: the bug could not be set up (${(err as Error).message})` };
  }
  const server = await startFakeOpenAIServer([{ content: 'I cannot tell where the bug is from this.' }]);
  try {
    const args = ['fix', '--cwd', ws.cwd, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream', '--json',
      '--state-dir', path.join(ws.dir, 'state'), '--test-cmd', p.testCmd, '--max-iterations', '1', '--tsc', bug.kind === 'type error' ? 'on' : 'off'];
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [cli, ...args], { maxBuffer: 64 * 1024 * 1024 }, (_e, stdout, stderr) => resolve({ stdout, stderr })));
    let report: { outcome?: string; reason?: string; baseline?: { failing: string[]; loadErrorFiles: string[]; diagnostics: number } } = {};
    try { report = JSON.parse(stdout); } catch { /* no report: named below */ }
    const failing = (report.baseline?.failing.length ?? 0) + (report.baseline?.diagnostics ?? 0);
    const unloaded = report.baseline?.loadErrorFiles.length ?? 0;
    if (keep) {
      fs.mkdirSync(keep, { recursive: true });
      fs.writeFileSync(path.join(keep, `${bug.id}.${path.basename(path.dirname(path.dirname(cli)))}.stderr.txt`), stderr);
    }
    const request = server.requests[0];
    if (!request) return { found: false, tokens: 0, failing, unloaded, outcome: `no prompt (${report.outcome ?? 'no report'} ${report.reason ?? ''})` };
    const user = request.body.messages.filter((m: { role: string }) => m.role === 'user').map((m: { content: string }) => m.content).join('\n');
    if (keep) fs.writeFileSync(path.join(keep, `${bug.id}.${path.basename(path.dirname(path.dirname(cli)))}.prompt.md`), user);
    return { ...measure(user, wrongLine(ws.cwd, bug)), failing, unloaded, outcome: report.outcome ?? 'no report' };
  } finally {
    await server.close();
    ws.dispose();
  }
}

async function verify(selected: Project[], bugs: Bug[]): Promise<void> {
  for (const p of selected) {
    const ws = startWorkspace(p, null);
    const r = await sh(p.testCmd, ws.cwd);
    ws.dispose();
    console.log(`${p.name}: pristine ${r.code === 0 ? 'passes' : `FAILS (exit ${r.code})\n${r.out.slice(-1500)}`}`);
    for (const bug of bugs.filter((b) => b.project === p.name)) {
      const w = startWorkspace(p, bug);
      const t = await sh(bug.kind === 'type error' ? 'node_modules/.bin/tsc --noEmit -p . 2>&1 || exit 1' : p.testCmd, w.cwd);
      w.dispose();
      console.log(`  ${bug.id}: ${t.code !== 0 ? 'fails a test (ok)' : 'PASSES: not a bug the tests see'}`);
    }
  }
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : Math.round((s[m - 1] + s[m]) / 2);
}

interface Row { bug: Bug; language: string; now: Shown; today: Shown | null }

/** A bug counts when the tests saw it: a test failed, tsc named an error, or (a compile error) a test file did not load. */
const seen = (r: Row) => r.now.failing + (r.now.unloaded ?? 0) > 0;

/**
 * The project's own suite passes on its pristine tree before any of its bugs is measured: a set-up that keeps the
 * tests from loading (cookie's tsconfig extends a package the project installs) would make every bug "fail" a
 * test and every prompt be about the set-up.
 */
async function checkPristine(p: Project): Promise<void> {
  const ws = startWorkspace(p, null);
  try {
    const r = await sh(p.testCmd, ws.cwd);
    if (r.code !== 0) throw new Error(`${p.name}: its own tests fail on the pristine tree (exit ${r.code}), so its bugs cannot be measured:\n${r.out.slice(-1500)}`);
  } finally {
    ws.dispose();
  }
}

function table(rows: Row[], baseline: string | null): string {
  const out: string[] = [];
  const pct = (n: number, d: number) => (d ? `${n} / ${d} (${Math.round((100 * n) / d)} %)` : '–');
  const cell = (rs: Row[], pick: (r: Row) => Shown | null) => {
    const got = rs.map(pick).filter((s): s is Shown => s !== null);
    return got.length ? `${pct(got.filter((s) => s.found).length, got.length)} · ${median(got.map((s) => s.tokens)).toLocaleString('en-US')}` : '–';
  };
  const head = baseline ? `| | bugs | today (${baseline}): found · median tokens | this build: found · median tokens |\n|---|---|---|---|` : '| | bugs | this build: found · median tokens |\n|---|---|---|';
  const line = (label: string, rs: Row[]) => `| ${label} | ${rs.length} | ${baseline ? `${cell(rs, (r) => r.today)} | ` : ''}${cell(rs, (r) => r.now)} |`;
  out.push(head);
  for (const name of [...new Set(rows.map((r) => r.bug.project))]) {
    const rs = rows.filter((r) => r.bug.project === name);
    out.push(line(`${name} (${rs[0].language})`, rs));
  }
  for (const kind of [...new Set(rows.map((r) => r.bug.kind))]) out.push(line(`kind: ${kind}`, rows.filter((r) => r.bug.kind === kind)));
  out.push(line('**all**', rows));
  return out.join('\n');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const picked = (x: string) => args.only.length === 0 || args.only.includes(x);
  const selected = PROJECTS.filter((p) => picked(p.name) || BUGS.some((b) => b.project === p.name && picked(b.id)));
  const bugs = BUGS.filter((b) => selected.some((p) => p.name === b.project) && (picked(b.project) || picked(b.id)));
  if (args.verify) return verify(selected, bugs);
  const now = path.join(ROOT, 'dist', 'cli.js');
  if (!fs.existsSync(now)) throw new Error('dist/cli.js is missing; run `npm run build` first.');
  const saved: Row[] = fs.existsSync(args.json) && (args.resume || args.tableOnly) ? JSON.parse(fs.readFileSync(args.json, 'utf8')) : [];
  const rows: Row[] = saved.filter((r) => bugs.some((b) => b.id === r.bug.id));
  if (!args.tableOnly) {
    const today = args.baseline ? baselineCli(args.baseline, CACHE) : null;
    const todo = bugs.filter((b) => !rows.some((r) => r.bug.id === b.id));
    for (const p of selected.filter((x) => todo.some((b) => b.project === x.name))) await checkPristine(p);
    for (const bug of todo) {
      const p = selected.find((x) => x.name === bug.project)!;
      const nowShown = await firstPrompt(now, p, bug, args.prompts);
      const todayShown = today ? await firstPrompt(today, p, bug, args.prompts) : null;
      rows.push({ bug, language: p.language, now: nowShown, today: todayShown });
      fs.mkdirSync(path.dirname(args.json), { recursive: true });
      fs.writeFileSync(args.json, JSON.stringify(rows, null, 1));
      const f = (s: Shown | null) => (s ? `${s.found ? 'found' : 'MISSED'} ${s.tokens} tok` : '');
      const note = nowShown.failing + (nowShown.unloaded ?? 0) === 0 ? ' — NO FAILURE AT BASELINE: the tests do not see this bug' : nowShown.outcome.startsWith('no prompt') ? ` — ${nowShown.outcome}` : '';
      console.error(`${bug.id}: this build ${f(nowShown)}${today ? ` · today ${f(todayShown)}` : ''}${note}`);
    }
  }
  const valid = rows.filter(seen);
  const projects = new Set(valid.map((r) => r.bug.project)).size;
  const hasToday = valid.some((r) => r.today !== null);
  console.log(`\nbench:context — ${valid.length} injected single-line bugs in ${projects} projects; the first prompt of \`greenloop fix --max-iterations 1\`: is the wrong line in the prompt's code, and how many tokens is that code (characters / 4)\n`);
  console.log(table(valid, hasToday ? (args.baseline ?? 'baseline') : null));
  const unseen = rows.filter((r) => !seen(r)).map((r) => r.bug.id);
  if (unseen.length) console.log(`\nLeft out (no test failed with the bug in): ${unseen.join(', ')}`);
  console.log(`\nEvery bug's figures: ${args.json}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});

