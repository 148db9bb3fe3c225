// Failing tests first, on the calc project (node --test, three tests, two failing) through the real CLI: what judges
// each attempt is in the report (`testRuns`), a regression hidden in an edit judged by its failing tests alone is
// found by the next whole-suite run without losing the fix that run judged, a green is confirmed by the flipped
// tests only, and `--verify-scope full` runs the whole suite every attempt as before.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { runCli, tempDir, tempProject } from '../support/cli';
import type { CliResult } from '../support/cli';
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import type { FakeOpenAIServer, ScriptStep } from '../../support/fakeOpenAIServer';
import { answer, BREAK_NEG, COMMENT, edit, FIX_ADD, FIX_MUL } from '../../support/calcAnswers';

/** Both bugs in one answer: the whole fix. */
const FIX_BOTH = `${FIX_ADD}\n${edit('src/calc.js', 'function mul(a, b) {\n  return a + b;', 'function mul(a, b) {\n  return a * b;', '')}`;

describe('greenloop fix: failing tests first, the whole suite when it can change the verdict', function () {
  this.timeout(180_000);
  let server: FakeOpenAIServer;
  let project: string;
  let stateDir: string;

  async function fix(script: ScriptStep[], extra: string[] = []): Promise<CliResult & { report: any }> {
    server.push(...script);
    const res = await runCli(['fix', '--cwd', project, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream', '--tsc', 'off', '--state-dir', stateDir, '--json', ...extra]);
    let report: any = null;
    try {
      report = JSON.parse(res.stdout);
    } catch {
      /* asserted by the caller */
    }
    return { ...res, report };
  }
  const prompt = (i: number): string => server.requests[i].body.messages.map((m: { content: string }) => m.content).join('\n');
  const source = () => fs.readFileSync(path.join(project, 'src', 'calc.js'), 'utf8');
  const scopes = (it: any): string[] => it.testRuns.map((r: any) => r.scope);

  beforeEach(async () => {
    server = await startFakeOpenAIServer([]);
    project = tempProject('calc');
    stateDir = tempDir('state');
  });
  afterEach(async () => {
    await server.close();
    fs.rmSync(project, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  it('judges an edit that fixes nothing by the two failing tests alone, and the prompt says they still fail', async () => {
    const res = await fix([answer(COMMENT('one')), answer(FIX_BOTH)]);
    assert.strictEqual(res.report.outcome, 'green', res.stderr);
    const [first, second] = res.report.iterations;
    assert.strictEqual(first.verdict, 'no-progress');
    assert.deepStrictEqual(first.testRuns.map((r: any) => ({ scope: r.scope, tests: r.tests })), [{ scope: 'targeted', tests: 2 }]);
    assert.match(first.testRuns[0].command, /^node --test '--test-name-pattern=\^\(\?:.*calc > adds.*calc > multiplies.*\)\$' test\/calc\.test\.js$/);
    assert.match(prompt(1), /the 2 failing tests still fail/);
    assert.match(res.stderr, /attempt 1: running the 2 failing tests\n/);
    assert.deepStrictEqual(scopes(second), ['targeted', 'full', 'targeted']);
    assert.strictEqual(second.testRuns[1].tests, 3, 'the whole suite');
    assert.match(res.stderr, /attempt 2: running the whole suite\n/);
    assert.match(res.stderr, /attempt 2: running the 2 tests that now pass again\n/);
    // The run's test time is every run's: the baseline's too.
    const attempts = [...first.testRuns, ...second.testRuns].reduce((s: number, r: any) => s + r.ms, 0);
    assert.ok(typeof res.report.testMs === 'number' && res.report.testMs >= attempts, `testMs ${res.report.testMs} < ${attempts}`);
  });

  it('confirms a green by re-running only the tests that flipped to passing', async () => {
    const res = await fix([answer(FIX_BOTH)]);
    assert.strictEqual(res.report.outcome, 'green', res.stderr);
    const [only] = res.report.iterations;
    assert.deepStrictEqual(scopes(only), ['targeted', 'full', 'targeted']);
    const confirm = only.testRuns[2];
    assert.strictEqual(confirm.tests, 2, 'only the two tests that flipped ran again');
    assert.match(confirm.command, /calc > adds.*calc > multiplies/);
    assert.doesNotMatch(confirm.command, /negates/);
  });

  it('finds a regression hidden in an edit judged by its failing tests, and keeps the later correct fix', async () => {
    // BREAK_NEG fixes nothing and breaks `negates`, which the targeted run does not run; FIX_BOTH is the real fix.
    const res = await fix([answer(BREAK_NEG), answer(FIX_BOTH)], ['--patience', '3']);
    assert.strictEqual(res.report.outcome, 'green', res.stderr);
    const [hidden, fixed] = res.report.iterations;
    assert.strictEqual(hidden.verdict, 'no-progress');
    assert.deepStrictEqual(scopes(hidden), ['targeted']);
    assert.strictEqual(hidden.rolledBack, false);
    // The fix's whole-suite run sees `negates` broken, so the fix is judged again on the best state, without BREAK_NEG.
    assert.strictEqual(fixed.verdict, 'green');
    assert.deepStrictEqual(scopes(fixed), ['targeted', 'full', 'full', 'targeted'], 'the failing tests, one whole run with the hidden edit, one without it (the broken test re-run for flakiness only there), the green confirmed by the flipped tests');
    assert.match(fixed.note, /judged again on top of the best state, without attempt 1's edit/);
    assert.ok(res.report.warnings.some((w: string) => /found `calc > negates` broken with attempt 1's edit/.test(w)), res.report.warnings.join('\n'));
    assert.match(source(), /return -a;/);
    assert.match(source(), /return a \+ b;/);
    assert.match(source(), /return a \* b;/);
    assert.deepStrictEqual(res.report.final.failing, []);
    const verify = await runCli(['verify', '--cwd', project, '--tsc', 'off']);
    assert.strictEqual(verify.code, 0, verify.stdout);
  });

  it('--verify-scope full runs the whole suite after every attempt, as before', async () => {
    const res = await fix([answer(COMMENT('one')), answer(FIX_BOTH)], ['--verify-scope', 'full']);
    assert.strictEqual(res.report.outcome, 'green', res.stderr);
    const [first, second] = res.report.iterations;
    assert.deepStrictEqual(scopes(first), ['full']);
    assert.strictEqual(first.testRuns[0].tests, 3);
    assert.deepStrictEqual(scopes(second), ['full', 'full']);
    assert.doesNotMatch(res.stderr, /failing tests\n/);
    assert.match(res.stderr, /attempt 1: running the whole suite\n/);
  });

  it('a bad --verify-scope is one sentence and a usage error', async () => {
    const res = await fix([], ['--verify-scope', 'some']);
    assert.strictEqual(res.code, 2);
    assert.match(res.stderr, /--verify-scope must be failing-first or full \(got "some"\)\./);
    assert.strictEqual(server.requests.length, 0);
  });
});
