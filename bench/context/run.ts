// npm run bench:context — does the model see the bug, on bugs no one picked? In each real project (projects.ts) a
// seeded generator (mutate.ts) draws single-line mutants uniformly over the source functions the project's own suite
// covers (coverage.ts), keeps those that make at least one of its tests fail, and for each kept mutant the real
// `greenloop fix --max-iterations 1` runs once against a scripted model on loopback that answers no edit: its first
// prompt is captured and the mutated line looked for in the prompt's code (measure.ts).
//   -- --projects NAME,…   projects to run (default: all, one at a time)
//   -- --limit N           mutants kept per project at most (default: the project's own, else 12)
//   -- --seed N            the draw's seed (default below; the table names it)
//   -- --cli PATH          the CLI measured as "today" (default: this checkout's dist/cli.js)
//   -- --after PATH|REF    a second CLI measured on the same mutants in the same run (a built dist/cli.js, or a commit
//                          built once into the cache as baselineCli.ts does), its column beside today's
//   -- --results DIR       per-project results, reused on the next run (default: bench/context/.results, ignored by git)
//   -- --fresh             forget the cached results of the selected projects
//   -- --table             print the table of the cached results and measure nothing
//   -- --prompts DIR       keep each captured first prompt (and the CLI's stderr) there
//   -- --mutants ID,…      measure only these kept mutants (e.g. m1,m7); the others keep what the results hold
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROJECTS, type Project } from './projects';
import { measure } from './measure';
import { startWorkspace, mutatedLine, CACHE } from './workspace';
import { startFakeOpenAIServer } from '../../test/support/fakeOpenAIServer';
import { baselineCli } from './baselineCli';
import type { Mutant } from './mutate';
import { DEFAULT_LIMIT, RESULTS, SEED, drawMutants, loadResult, type ProjectResult, type Shown } from './draw';

const ROOT = path.resolve(__dirname, '../..');

interface Args { projects: string[]; limit: number | null; seed: number; cli: string; after: string | null; results: string; fresh: boolean; tableOnly: boolean; prompts: string | null; mutants: string[] | null }

function parseArgs(argv: string[]): Args {
  const args: Args = { projects: [], limit: null, seed: SEED, cli: path.join(ROOT, 'dist', 'cli.js'), after: null, results: RESULTS, fresh: false, tableOnly: false, prompts: null, mutants: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--projects') args.projects = argv[++i].split(',');
    else if (a === '--limit') args.limit = Number(argv[++i]);
    else if (a === '--seed') args.seed = Number(argv[++i]);
    else if (a === '--cli') args.cli = path.resolve(argv[++i]);
    else if (a === '--after') args.after = argv[++i];
    else if (a === '--results') args.results = path.resolve(argv[++i]);
    else if (a === '--fresh') args.fresh = true;
    else if (a === '--table') args.tableOnly = true;
    else if (a === '--prompts') args.prompts = argv[++i];
    else if (a === '--mutants') args.mutants = argv[++i].split(',');
    else throw new Error(`Unknown option ${a}; see the head of bench/context/run.ts.`);
  }
  return args;
}

async function firstPrompt(cli: string, label: string, p: Project, m: Mutant, keep: string | null): Promise<Shown> {
  const ws = startWorkspace(p, m);
  const server = await startFakeOpenAIServer([{ content: 'I cannot tell where the bug is from this.' }]);
  try {
    const args = ['fix', '--cwd', ws.cwd, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream', '--json',
      '--state-dir', path.join(ws.dir, 'state'), '--test-cmd', p.testCmd, '--max-iterations', '1', '--tsc', 'off'];
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [cli, ...args], { maxBuffer: 256 * 1024 * 1024, env: { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off' } }, (_e, stdout, stderr) => resolve({ stdout, stderr })));
    let report: { outcome?: string; reason?: string; baseline?: { failing: string[]; loadErrorFiles: string[]; diagnostics: number } } = {};
    try { report = JSON.parse(stdout); } catch { /* no report: named below */ }
    const failing = (report.baseline?.failing.length ?? 0) + (report.baseline?.loadErrorFiles.length ?? 0);
    const coverage = /greenloop: coverage of the failing tests (.*)/.exec(stderr)?.[1] ?? null;
    const request = server.requests[0];
    if (keep) {
      fs.mkdirSync(keep, { recursive: true });
      fs.writeFileSync(path.join(keep, `${p.name}-${m.id}.${label}.stderr.txt`), stderr);
    }
    if (!request) return { found: false, tokens: 0, failing, coverage, outcome: `no prompt (${report.outcome ?? 'no report'} ${report.reason ?? ''})` };
    const user = request.body.messages.filter((x: { role: string }) => x.role === 'user').map((x: { content: string }) => x.content).join('\n');
    if (keep) fs.writeFileSync(path.join(keep, `${p.name}-${m.id}.${label}.prompt.md`), user);
    const lines = fs.readFileSync(path.join(ws.cwd, m.file), 'utf8').split('\n');
    return { ...measure(user, mutatedLine(m, lines)), failing, coverage, outcome: report.outcome ?? 'no report' };
  } finally {
    await server.close();
    ws.dispose();
  }
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : Math.round((s[m - 1] + s[m]) / 2);
}

function table(results: ProjectResult[], labels: string[]): string {
  const pct = (n: number, d: number) => (d ? `${n} / ${d} (${Math.round((100 * n) / d)} %)` : '–');
  const cell = (shown: Shown[]) => `${pct(shown.filter((s) => s.found).length, shown.length)} | ${shown.length ? median(shown.map((s) => s.tokens)).toLocaleString('en-US') : '–'}`;
  const head = `| project | language | non-test lines | functions covered / all | mutants drawn / kept | ${labels.map((l) => `${l}: mutated line in first prompt | ${l}: median code-context tokens`).join(' | ')} | covered run (bench) · plain run | Greenloop's covered runs (${labels[labels.length - 1]}): used · median cost |`;
  const out = [head, `|${'---|'.repeat(7 + 2 * labels.length)}`];
  const rowsOf = (r: ProjectResult, l: string) => Object.values(r.shown).map((s) => s[l]).filter((s): s is Shown => !!s && s.failing > 0);
  for (const r of results) {
    const kept = r.tried.filter((t) => t.killed).length;
    const notes = rowsOf(r, labels[labels.length - 1]).map((s) => s.coverage ?? 'no note');
    const used = notes.filter((n) => n.startsWith('used')).length;
    // What the covered runs cost, used or not: "the covered runs took 1643 ms", or a run stopped at its allowance.
    const costs = notes.map((n) => Number(/covered runs took (\d+) ms|passed (\d+) ms/.exec(n)?.slice(1).find(Boolean) ?? NaN)).filter((x) => !Number.isNaN(x));
    out.push(`| ${r.project} | ${r.language} | ${r.sourceLines.toLocaleString('en-US')} | ${r.coverage.note.startsWith('no covered') ? `– / ${r.functions} ¹` : `${r.coveredFunctions} / ${r.functions}`} | ${r.tried.length} / ${kept} | ${labels.map((l) => cell(rowsOf(r, l))).join(' | ')} | ${r.coverage.seconds ? `${r.coverage.seconds.toFixed(1)} s` : '–'} · ${r.coverage.plainSeconds.toFixed(1)} s | used ${used} of ${notes.length} · ${costs.length ? `${(median(costs) / 1000).toFixed(1)} s` : '–'} |`);
  }
  const all = (l: string) => results.flatMap((r) => rowsOf(r, l));
  out.push(`| **all** | ${new Set(results.map((r) => r.language)).size} languages | ${results.reduce((n, r) => n + r.sourceLines, 0).toLocaleString('en-US')} | | ${results.reduce((n, r) => n + r.tried.length, 0)} / ${results.reduce((n, r) => n + r.tried.filter((t) => t.killed).length, 0)} | ${labels.map((l) => cell(all(l))).join(' | ')} | | |`);
  return out.join('\n');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const selected = PROJECTS.filter((p) => args.projects.length === 0 || args.projects.includes(p.name));
  if (args.projects.some((n) => !PROJECTS.some((p) => p.name === n))) throw new Error(`Unknown project in --projects; known: ${PROJECTS.map((p) => p.name).join(', ')}.`);
  fs.mkdirSync(args.results, { recursive: true });
  const clis: Record<string, string> = { today: args.cli };
  if (args.after) clis.after = fs.existsSync(args.after) ? path.resolve(args.after) : baselineCli(args.after, CACHE);
  if (!args.tableOnly && !fs.existsSync(args.cli)) throw new Error(`${args.cli} is missing; run \`npm run build\` first.`);
  const results: ProjectResult[] = [];
  for (const p of selected) {
    const file = path.join(args.results, `${p.name}.json`);
    const limit = args.limit ?? p.mutants ?? DEFAULT_LIMIT;
    const r = loadResult(p, file, args.seed, limit, args.fresh);
    if (args.tableOnly) {
      if (r.tried.length) results.push(r);
      continue;
    }
    const save = () => fs.writeFileSync(file, JSON.stringify(r, null, 1));
    try {
      await drawMutants(p, r, save);
    } catch (err) {
      console.error(`${p.name}: ${(err as Error).message}`);
      continue;
    }
    for (const [label, cli] of Object.entries(clis)) {
      // A cached column is reused only for the same build.
      const stamp = `${cli} ${fs.statSync(cli).mtimeMs}`;
      if (r.cli[label] !== stamp) for (const s of Object.values(r.shown)) delete s[label];
      r.cli[label] = stamp;
    }
    for (const t of r.tried.filter((x) => x.killed && (!args.mutants || args.mutants.includes(x.mutant.id)))) {
      for (const [label, cli] of Object.entries(clis)) {
        if (r.shown[t.mutant.id]?.[label]) continue;
        const s = await firstPrompt(cli, label, p, t.mutant, args.prompts);
        (r.shown[t.mutant.id] ??= {})[label] = s;
        save();
        console.error(`  ${t.mutant.id} ${label}: ${s.found ? 'found' : 'MISSED'} · ${s.tokens} tokens · ${s.failing} failing · ${s.outcome}`);
      }
    }
    results.push(r);
  }
  const labels = Object.keys(clis);
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  console.log(`\nbench:context — seeded mutants (seed ${args.seed}) in ${results.length} projects; the first prompt of \`greenloop fix --max-iterations 1\` (today: ${path.relative(ROOT, args.cli) || args.cli} at ${commit}${args.after ? `, after: ${args.after}` : ''})\n`);
  console.log(table(results, labels));
  console.log('\n¹ no covered run for this language: every function of the sources is drawn from; only mutants a test sees are kept.');
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
