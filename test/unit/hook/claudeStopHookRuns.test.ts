// How many times a Claude Code Stop check runs the test command, counted by the test command itself (it appends a line
// to a file outside the workspace each time it starts): once per check, never again when nothing newly fails — the
// agent waits for every stop — and more than once only to tell a newly failing test flaky from broken. No clock.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { runCli, tempDir, tempProject } from '../support/cli';

const FIXED_ADD = (src: string) => src.replace('return a - b;', 'return a + b;');
const FIXED_MUL = (src: string) => src.replace('function mul(a, b) {\n  return a + b;', 'function mul(a, b) {\n  return a * b;');
const BROKEN_NEG = (src: string) => src.replace('return -a;', 'return a;');

describe('greenloop hook claude-stop runs the tests once per check unless a test newly fails (counted)', function () {
  this.timeout(120_000);
  let project: string;
  let stateDir: string;
  let counter: string;

  beforeEach(() => {
    project = tempProject('calc');
    stateDir = tempDir('state');
    counter = path.join(stateDir, 'test-runs');
  });
  afterEach(() => {
    fs.rmSync(project, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  const calc = () => path.join(project, 'src', 'calc.js');
  const edit = (change: (s: string) => string) => fs.writeFileSync(calc(), change(fs.readFileSync(calc(), 'utf8')));
  const runs = () => (fs.existsSync(counter) ? fs.readFileSync(counter, 'utf8').split('\n').filter(Boolean).length : 0);

  /** One hook event; resolves with its answer and the test runs it made. */
  async function event(name: string, session = 'runs-session'): Promise<{ out: any; testRuns: number }> {
    const before = runs();
    const input = JSON.stringify({ session_id: session, cwd: project, hook_event_name: name, stop_hook_active: name === 'Stop' });
    const testCmd = `echo run >> ${JSON.stringify(counter)} && node --test test/`;
    const res = await runCli(['hook', 'claude-stop', '--tsc', 'off', '--state-dir', stateDir, '--test-cmd', testCmd], { input });
    assert.equal(res.code, 0, res.stderr);
    return { out: JSON.parse(res.stdout), testRuns: runs() - before };
  }

  it('a progress check and a green check each run the test command exactly once; a check with nothing changed runs none', async () => {
    assert.equal((await event('SessionStart')).testRuns, 1, 'the baseline');

    edit(FIXED_ADD);
    const progress = await event('Stop');
    assert.equal(progress.out.decision, 'block');
    assert.match(progress.out.reason, /Verdict: progress/);
    assert.equal(progress.testRuns, 1, 'nothing newly failed: no re-run');

    const unchanged = await event('Stop');
    assert.match(unchanged.out.reason, /without changing any file/);
    assert.equal(unchanged.testRuns, 0, 'nothing changed since the last check: nothing to run');

    edit(FIXED_MUL);
    const green = await event('Stop');
    assert.match(green.out.systemMessage, /all tests pass/);
    assert.equal(green.testRuns, 1, 'a green that nothing contradicts is not run again');
  });

  it('a test that newly fails is run again to tell flaky from broken (the counter sees those runs)', async () => {
    await event('SessionStart');
    edit(BROKEN_NEG);
    const regression = await event('Stop');
    assert.match(regression.out.reason, /Verdict: regression — broke `calc > negates`/);
    assert.ok(regression.testRuns > 1, `${regression.testRuns} run(s): the newly failing test was not run again`);
    assert.match(fs.readFileSync(calc(), 'utf8'), /return -a;/, 'the regression is rolled back');
  });
});
