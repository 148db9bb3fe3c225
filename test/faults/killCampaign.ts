// SIGKILL at the worst moments, then the next start: the bundled CLI runs a two-attempt fix on a workspace of 1,500
// generated modules (attempt 1 rewrites all of them and breaks a test, so it is rolled back; attempt 2 fixes the bug)
// and is killed while the model is asked, while the 1,500 files are written, while the tests run, while the rollback
// writes, or at a random moment. Then a new run starts on the same folder, and each kill must leave: the workspace
// equal to the state before or after an attempt, the person's uncommitted and untracked files byte-identical, no
// temp file anywhere, and a next run that starts cleanly. Used by the mocha sample (npm test) and by
// test/faults/run.ts (npm run test:faults, the full campaign).
import { spawn, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureCliBuilt, runCli } from '../unit/support/cli';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../support/fakeOpenAIServer';

export const MODULES = 1500;
/** candidates: with --candidates 2 both answers are attempt 1's; killed as the first is rolled back and the second applied. */
export type Phase = 'model' | 'apply' | 'test' | 'rollback' | 'random' | 'candidates';
export const PHASES: Phase[] = ['model', 'apply', 'test', 'rollback', 'random', 'candidates'];
const MODEL_DELAY_MS = 400;

const fence = '`'.repeat(3);
function block(file: string, search: string, replace: string): string {
  return `${file}\n${fence}\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n${fence}\n`;
}
const modName = (i: number) => `src/gen/m${String(i).padStart(4, '0')}.js`;
/** Attempt 1: every module changes, which breaks the passing "modules" test: a 1,500-file regression to roll back. */
const WIDE_REGRESSION = `Changing every module.\n${Array.from({ length: MODULES }, (_, i) => block(modName(i), 'module.exports = 0;', 'module.exports = 1;')).join('\n')}`;
/** Attempt 2: the real fix. */
const FIX_ADD = block('src/calc.js', 'return a - b;', 'return a + b;');

/** The template workspace, made once: a git repository with a commit plus the person's uncommitted work. */
export function makeTemplate(root: string): string {
  const ws = path.join(root, 'template');
  const w = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  };
  w('package.json', JSON.stringify({ name: 'wide', private: true, scripts: { test: 'node --test test/' } }, null, 2));
  w('src/calc.js', 'exports.add = (a, b) => {\n  return a - b;\n};\nexports.mul = (a, b) => a * b;\n');
  for (let i = 0; i < MODULES; i++) w(modName(i), 'module.exports = 0;\n');
  w('test/calc.test.js', [
    "const test = require('node:test');",
    "const assert = require('node:assert');",
    "const fs = require('node:fs');",
    "const path = require('node:path');",
    "const calc = require('../src/calc');",
    "test('add', () => assert.strictEqual(calc.add(2, 3), 5));",
    "test('mul', () => assert.strictEqual(calc.mul(2, 3), 6));",
    "test('modules', () => {",
    "  const dir = path.join(__dirname, '..', 'src', 'gen');",
    "  const sum = fs.readdirSync(dir).reduce((s, f) => s + require(path.join(dir, f)), 0);",
    '  assert.strictEqual(sum, 0);',
    '});',
    '',
  ].join('\n'));
  w('README.md', '# wide\n');
  const git = (...a: string[]) => execFileSync('git', a, { cwd: ws, stdio: 'pipe' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'wide');
  // The person's work in progress: an uncommitted change and an untracked file the loop has no business touching.
  w('README.md', '# wide\n\nNotes I have not committed yet.\n');
  w('NOTES.md', 'my untracked notes\n');
  return ws;
}

/** Every file under `root` but .git, with its bytes: equal maps are equal workspaces. */
export function fileMap(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (r === '.git') continue;
      if (e.isDirectory()) walk(r);
      else out.set(r, fs.readFileSync(path.join(root, r), 'latin1'));
    }
  };
  walk('');
  return out;
}

function sameFiles(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

function differences(a: Map<string, string>, b: Map<string, string>): string[] {
  const keys = new Set([...a.keys(), ...b.keys()]);
  return [...keys].filter((k) => a.get(k) !== b.get(k)).sort();
}

/** Files whose names mark them as someone's temp files: ours, git's locks, a journal's. */
export function leftoverTemps(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.greenloop-\d+-[0-9a-f]{8}$|\.tmp$|\.lock$/.test(e.name)) out.push(path.relative(root, p));
    }
  };
  walk(root);
  return out;
}

export interface Expected {
  baseline: Map<string, string>;
  fixed: Map<string, string>;
}

export function expectedStates(template: string): Expected {
  const baseline = fileMap(template);
  const fixed = new Map(baseline);
  fixed.set('src/calc.js', baseline.get('src/calc.js')!.replace('return a - b;', 'return a + b;'));
  return { baseline, fixed };
}

interface Moments {
  /** ms from start: the model request arrived. */
  request: number;
  applyMs: number;
  testMs: number;
  rollbackMs: number;
  totalMs: number;
}

export interface KillOutcome {
  phase: Phase;
  delayMs: number;
  /** Which state the workspace was in after the next start: the one before attempt 1 or after the fix. */
  state: 'before' | 'after';
  recovered: string | null;
  problems: string[];
}

function startFix(cwd: string, stateDir: string, server: FakeOpenAIServer, extra: string[] = []) {
  const cli = ensureCliBuilt();
  const child = spawn(process.execPath, [cli, 'fix', '--cwd', cwd, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream',
    '--tsc', 'off', '--state-dir', stateDir, '--max-iterations', '3', '--ignore-history', ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
  const lines: Array<{ at: number; text: string }> = [];
  const t0 = Date.now();
  let buf = '';
  child.stderr.on('data', (d: Buffer) => {
    buf += d.toString();
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      lines.push({ at: Date.now() - t0, text: buf.slice(0, nl) });
      buf = buf.slice(nl + 1);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, lines, t0, exited };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function waitFor(cond: () => boolean, limitMs: number): Promise<boolean> {
  const end = Date.now() + limitMs;
  while (Date.now() < end) {
    if (cond()) return true;
    await sleep(3);
  }
  return false;
}

export class KillCampaign {
  private template = '';
  private expected!: Expected;
  private moments!: Moments;
  private readonly root = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-kills-'));
  private n = 0;

  /** Builds the template and measures one run without a kill, to know when each phase happens. */
  async prepare(): Promise<Moments> {
    this.template = makeTemplate(this.root);
    this.expected = expectedStates(this.template);
    const { ws, stateDir } = this.fresh();
    const server = await startFakeOpenAIServer(this.script());
    try {
      const run = startFix(ws, stateDir, server);
      let request = 0;
      let rollbackStart = 0;
      const first = path.join(ws, modName(0));
      let sawApplied = false;
      const watch = (async () => {
        await waitFor(() => server.requests.length > 0, 60_000);
        request = Date.now() - run.t0;
        await waitFor(() => fs.readFileSync(first, 'utf8').includes('= 1'), 60_000);
        sawApplied = true;
        await waitFor(() => fs.readFileSync(first, 'utf8').includes('= 0'), 60_000);
        rollbackStart = Date.now() - run.t0;
      })();
      const code = await run.exited;
      await watch;
      const at = (re: RegExp) => run.lines.find((l) => re.test(l.text))?.at ?? NaN;
      const answered = at(/attempt 1: answer received/);
      // "running the failing test", "running the whole suite": attempt 1's tests, whichever scope judges it.
      const verifying = at(/attempt 1: running the /);
      const VERDICT = /attempt \d+: (regression|no-progress|progress|green)/;
      const judged = at(/attempt 1: (regression|no-progress|progress|green)/);
      // The 1,500 files go back when a whole-suite run finds the wide edit's regression (attempt 1 under --verify-scope
      // full; attempt 2's re-judge under failing-first): the rollback ends before that attempt's verdict line.
      const verified = run.lines.find((l) => l.at >= rollbackStart && VERDICT.test(l.text))?.at ?? NaN;
      if (code !== 0 || !sawApplied) throw new Error(`the calibration run did not go as scripted (exit ${code}):\n${run.lines.map((l) => l.text).join('\n')}`);
      this.moments = {
        request,
        applyMs: Math.max(20, answered - (request + MODEL_DELAY_MS)),
        testMs: Math.max(20, judged - verifying),
        rollbackMs: Math.max(20, verified - rollbackStart),
        totalMs: Date.now() - run.t0,
      };
      // A phase the calibration cannot place would make every kill of it land at once (a sleep of NaN): say so instead.
      const unplaced = Object.entries(this.moments).filter(([, v]) => !Number.isFinite(v)).map(([k]) => k);
      if (unplaced.length) throw new Error(`the calibration run's lines did not place ${unplaced.join(', ')}:\n${run.lines.map((l) => l.text).join('\n')}`);
      return this.moments;
    } finally {
      await server.close();
    }
  }

  /** One kill in `phase` at a random moment inside it, the next start, and every check. */
  async killOnce(phase: Phase): Promise<KillOutcome> {
    const { ws, stateDir } = this.fresh();
    const server = await startFakeOpenAIServer(this.script());
    const problems: string[] = [];
    let delayMs = 0;
    try {
      const run = startFix(ws, stateDir, server, phase === 'candidates' ? ['--candidates', '2'] : []);
      const first = path.join(ws, modName(0));
      const jitter = (ms: number) => Math.floor(Math.random() * ms);
      const m = this.moments;
      if (phase === 'model') {
        await waitFor(() => server.requests.length > 0, 30_000);
        delayMs = jitter(MODEL_DELAY_MS);
      } else if (phase === 'apply') {
        await waitFor(() => server.requests.length > 0, 30_000);
        delayMs = MODEL_DELAY_MS + jitter(m.applyMs + 20);
      } else if (phase === 'test') {
        await waitFor(() => run.lines.some((l) => /attempt 1: running the /.test(l.text)), 30_000);
        delayMs = jitter(m.testMs);
      } else if (phase === 'rollback') {
        await waitFor(() => run.lines.some((l) => /attempt 1: running the /.test(l.text)), 30_000);
        await waitFor(() => fs.readFileSync(first, 'utf8').includes('= 1'), 60_000);
        await waitFor(() => fs.readFileSync(first, 'utf8').includes('= 0'), 60_000);
        delayMs = jitter(m.rollbackMs);
      } else if (phase === 'candidates') {
        // Answer 1 (the 1,500-file edit) is tried and rolled back, then answer 2 applied: killed anywhere in between.
        await waitFor(() => fs.readFileSync(first, 'utf8').includes('= 1'), 60_000);
        await waitFor(() => fs.readFileSync(first, 'utf8').includes('= 0'), 60_000);
        delayMs = jitter(m.rollbackMs + m.applyMs);
      } else {
        delayMs = jitter(m.totalMs);
      }
      await sleep(delayMs);
      run.child.kill('SIGKILL');
      await run.exited;
      // The test command the dead CLI started may still be finishing; it writes nothing, but let it end.
      await sleep(50);

      // The next start gets only an unusable answer: whatever state it leaves is what recovery left.
      const quiet = await startFakeOpenAIServer([{ content: 'I have nothing to change.' }]);
      const next = await runCli(['fix', '--cwd', ws, '--actor', 'openai', '--base-url', quiet.url, '--model', 'scripted', '--no-stream', '--tsc', 'off',
        '--state-dir', stateDir, '--max-iterations', '1', '--ignore-history'], { timeoutMs: 120_000 }).finally(() => quiet.close());
      const recovered = next.stderr.split('\n').find((l) => /interrupted/.test(l)) ?? null;
      if (next.code !== 0 && next.code !== 1) problems.push(`the next run exited ${next.code}: ${next.stderr.trim().split('\n').slice(-2).join(' | ')}`);
      const odd = next.stderr.split('\n').filter((l) => l && !/^greenloop: /.test(l));
      if (odd.length) problems.push(`the next run printed unexpected lines: ${odd.slice(0, 2).join(' | ')}`);
      if (/Internal error|fatal:|index\.lock/.test(next.stderr)) problems.push(`the next run did not start cleanly: ${next.stderr.trim().split('\n').slice(-2).join(' | ')}`);

      const now = fileMap(ws);
      const state = sameFiles(now, this.expected.baseline) ? 'before' : sameFiles(now, this.expected.fixed) ? 'after' : null;
      if (!state) problems.push(`the workspace is neither the state before nor after an attempt: ${differences(now, this.expected.baseline).slice(0, 5).join(', ')} (${differences(now, this.expected.baseline).length} files differ from before, ${differences(now, this.expected.fixed).length} from after; the next run said: ${next.stderr.trim().split('\n').slice(0, 6).join(' | ')})`);
      for (const mine of ['README.md', 'NOTES.md']) {
        if (now.get(mine) !== this.expected.baseline.get(mine)) problems.push(`the person's ${mine} changed`);
      }
      const temps = [...leftoverTemps(ws), ...leftoverTemps(stateDir).map((p) => `state/${p}`)];
      if (temps.length) problems.push(`temp or lock files were left: ${temps.slice(0, 5).join(', ')}`);
      const journal = path.join(stateDir, 'journal');
      if (fs.existsSync(journal) && fs.readdirSync(journal).length) problems.push('the run journal was not released after the next run');
      return { phase, delayMs, state: state ?? 'before', recovered, problems };
    } finally {
      await server.close();
      fs.rmSync(path.dirname(ws), { recursive: true, force: true });
    }
  }

  close(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }

  /** The scripted answers: the wide regression, then the fix. */
  private script() {
    return [
      { content: WIDE_REGRESSION, delayMs: MODEL_DELAY_MS },
      { content: FIX_ADD, delayMs: MODEL_DELAY_MS },
    ];
  }

  private fresh(): { ws: string; stateDir: string } {
    const dir = path.join(this.root, `k${++this.n}`);
    const ws = path.join(dir, 'ws');
    fs.cpSync(this.template, ws, { recursive: true });
    const stateDir = path.join(dir, 'state');
    fs.mkdirSync(stateDir, { recursive: true });
    return { ws, stateDir };
  }
}
