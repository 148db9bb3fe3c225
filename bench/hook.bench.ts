// What a Claude Code Stop check costs beyond the test run it makes, and what the CLI's start costs beyond Node's own,
// each next to its baseline measured in the same run, round by round (so a busy machine slows both alike):
//   `greenloop --help`                          vs  bare `node -e 0`
//   `greenloop hook claude-stop` (a Stop check)  vs  the bare test run (`node --test test/`, 4 tests)
// Each round starts a new Claude session on a fresh copy of a 4-test project with 2 failing tests: SessionStart
// records the baseline (not timed), then two timed Stop checks — one after an edit that fixes a test (progress), one
// after the edit that makes it green. The test command counts its own runs, so the table also says how many test
// runs each check made. Targets (issue 22): a check costs at most 0.4 s more than the test run; `--help` starts in
// under 0.2 s where bare Node starts in 0.12 s, judged here as at most 0.08 s more than bare Node in the same run
// (five pairs of starts a round).
// Run: npm run bench:hook [-- --rounds N] [-- --cli path/to/cli.js]   (--cli measures another build, e.g. main's)
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = path.join(__dirname, '..');
const args = process.argv.slice(2);
const flag = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const ROUNDS = Number(flag('--rounds') ?? 7);
const CLI = path.resolve(flag('--cli') ?? path.join(ROOT, 'dist', 'cli.js'));
const TEST_CMD = 'node count.js && node --test test/';
const CHECK_TARGET_S = 0.4;
const HELP_EXTRA_TARGET_S = 0.08;

const CALC = path.join(ROOT, 'test', 'fixtures', 'projects', 'calc');
const FIX_ADD = (s: string) => s.replace('return a - b;', 'return a + b;');
const FIX_MUL = (s: string) => s.replace('function mul(a, b) {\n  return a + b;', 'function mul(a, b) {\n  return a * b;');

interface Ran { ms: number; /** CPU seconds of the process and its children (user + system), when GNU time is here. */ cpuMs: number | null; stdout: string; code: number | null }

/** GNU time gives the CPU a command tree used: on a busy machine wall time swings, CPU time much less. */
const TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

function run(cmd: string, argv: string[], opts: { cwd?: string; input?: string; shell?: boolean } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const cpuFile = path.join(os.tmpdir(), `greenloop-bench-cpu-${process.pid}`);
    const [file, full] = TIME && !opts.shell ? [TIME, ['-f', '%U %S', '-o', cpuFile, cmd, ...argv]] : TIME ? [TIME, ['-f', '%U %S', '-o', cpuFile, 'sh', '-c', cmd]] : [cmd, argv];
    const t0 = performance.now();
    const child = spawn(file, full, { cwd: opts.cwd, stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      let cpuMs: number | null = null;
      if (TIME) {
        const [user, sys] = fs.readFileSync(cpuFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
        cpuMs = ((user ?? 0) + (sys ?? 0)) * 1000;
      }
      resolve({ ms, cpuMs, stdout, code });
    });
    // A command that exits without reading its input (node -e 0) must not fail the write.
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}

/** A fresh git copy of the calc project with a fourth test, whose test command counts its runs in `runs`. */
async function project(dir: string): Promise<{ dir: string; runs: string }> {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(CALC, dir, { recursive: true });
  const suite = path.join(dir, 'test', 'calc.test.js');
  fs.writeFileSync(suite, fs.readFileSync(suite, 'utf8').replace("  it('negates'", "  it('adds zero', () => assert.equal(add(2, 0), 2));\n  it('negates'"));
  const runs = path.join(dir, '..', `${path.basename(dir)}.runs`);
  fs.writeFileSync(path.join(dir, 'count.js'), `require('fs').appendFileSync(${JSON.stringify(runs)}, 'run\\n');\n`);
  fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules\n');
  const git = (...a: string[]) => run('git', a, { cwd: dir });
  await git('init', '-q');
  await git('add', '-A');
  await git('-c', 'user.name=b', '-c', 'user.email=b@example.com', 'commit', '-qm', 'calc');
  return { dir, runs };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

type Figure = 'bare' | 'help' | 'test' | 'progress' | 'green';

async function main(): Promise<void> {
  if (!flag('--cli')) await run('npm', ['run', '--silent', 'build'], { cwd: ROOT });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-bench-hook-'));
  const seen: Record<Figure, Ran[]> = { bare: [], help: [], test: [], progress: [], green: [] };
  const testRuns: Record<'progress' | 'green', number[]> = { progress: [], green: [] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const p = await project(path.join(work, `calc-${round}`));
      const state = path.join(work, `state-${round}`);
      const runsSoFar = () => (fs.existsSync(p.runs) ? fs.readFileSync(p.runs, 'utf8').split('\n').filter(Boolean).length : 0);
      const hook = (event: string) => run(process.execPath, [CLI, 'hook', 'claude-stop', '--tsc', 'off', '--state-dir', state, '--test-cmd', TEST_CMD], {
        input: JSON.stringify({ session_id: `bench-${round}`, cwd: p.dir, hook_event_name: event, stop_hook_active: event === 'Stop' }),
      });
      const calc = path.join(p.dir, 'src', 'calc.js');
      const edit = (change: (s: string) => string) => fs.writeFileSync(calc, change(fs.readFileSync(calc, 'utf8')));
      const check = async (kind: 'progress' | 'green', expect: RegExp) => {
        const before = runsSoFar();
        const answer = await hook('Stop');
        if (!expect.test(answer.stdout)) throw new Error(`the ${kind} check answered ${answer.stdout || `nothing (exit ${answer.code})`}`);
        seen[kind].push(answer);
        testRuns[kind].push(runsSoFar() - before);
      };

      // Starts are short and noisy: five pairs a round, interleaved.
      for (let i = 0; i < 5; i++) {
        seen.bare.push(await run(process.execPath, ['-e', '0']));
        seen.help.push(await run(process.execPath, [CLI, '--help']));
      }
      seen.test.push(await run(TEST_CMD, [], { cwd: p.dir, shell: true }));
      const start = await hook('SessionStart');
      if (start.code !== 0) throw new Error(`SessionStart failed (exit ${start.code}): ${start.stdout}`);
      edit(FIX_ADD);
      await check('progress', /"decision":"block"/);
      edit(FIX_MUL);
      await check('green', /all tests pass/);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const wall = (k: Figure) => median(seen[k].map((r) => r.ms)) / 1000;
  const cpu = (k: Figure) => (TIME ? `${(median(seen[k].map((r) => r.cpuMs ?? 0)) / 1000).toFixed(2)} s` : '—');
  const extra = (k: Figure, base: Figure) => wall(k) - wall(base);
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const runsOf = (k: 'progress' | 'green') => `${median(testRuns[k])} test run${median(testRuns[k]) === 1 ? '' : 's'}`;
  const line = (what: string, k: Figure, base: Figure | null, target: number | null) => {
    const over = base ? `+${extra(k, base).toFixed(2)} s (${(wall(k) / wall(base)).toFixed(1)}×)` : 'baseline';
    const goal = base && target !== null ? `≤ +${target} s: ${verdict(extra(k, base) <= target)}` : '';
    console.log(`| ${what} | ${wall(k).toFixed(2)} s | ${cpu(k)} | ${over} | ${goal} |`);
  };
  console.log(`Claude Stop hook and CLI start (${flag('--cli') ? CLI : 'this build'}): medians of ${ROUNDS} rounds; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);
  console.log('| what | wall | CPU | over its baseline | target |');
  console.log('|---|---|---|---|---|');
  line('bare `node -e 0`', 'bare', null, null);
  line('`greenloop --help`', 'help', 'bare', HELP_EXTRA_TARGET_S);
  line(`bare test run (\`${TEST_CMD}\`, 4 tests)`, 'test', null, null);
  line(`Stop check after a fix (progress; ${runsOf('progress')})`, 'progress', 'test', CHECK_TARGET_S);
  line(`Stop check, green (${runsOf('green')})`, 'green', 'test', CHECK_TARGET_S);
  if (extra('help', 'bare') > HELP_EXTRA_TARGET_S || extra('progress', 'test') > CHECK_TARGET_S || extra('green', 'test') > CHECK_TARGET_S) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
