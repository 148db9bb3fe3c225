// A syntax error in a source file three test files require (test/fixtures/projects/ledger), next to two failing tests:
// real `node --test`, the real CLI, a scripted model on loopback. The person is told "2 failing, 3 test files did not
// load", never "5 failing"; the loop still treats a file that stops loading as a regression.
import * as assert from 'assert';
import * as fs from 'fs';
import { runCli, tempDir, tempProject } from '../support/cli';
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import type { FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { answer, edit, FIX_ADD, FIX_MUL } from '../../support/calcAnswers';

const TOTAL = '  return entries.reduce((sum, e) => sum + e.amount, 0);';
const FIX_LEDGER = edit('src/ledger.js', TOTAL, `${TOTAL}\n}`, 'total() is missing its closing brace.');
/** Another syntax error in the same file (not the one the run started with: that would be a cycle). */
const BREAK_LEDGER = edit('src/ledger.js', 'function balance(entries, opening) {', 'function balance(entries, opening) {{', 'Maybe balance() needs a block.');
const NOT_LOADED = ['test/ledger-balance.test.js', 'test/ledger-report.test.js', 'test/ledger-totals.test.js'];
const FAILING = ['calc > adds', 'calc > multiplies'];

describe('test files that did not load, through the CLI (real node --test, scripted model)', function () {
  this.timeout(180_000);
  let server: FakeOpenAIServer;
  let project: string;
  let stateDir: string;

  beforeEach(async () => {
    server = await startFakeOpenAIServer([]);
    project = tempProject('ledger');
    stateDir = tempDir('state');
  });
  afterEach(async () => {
    await server.close();
    fs.rmSync(project, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  it('verify counts the files that did not load apart from the failing tests (loadErrorFiles)', async () => {
    const res = await runCli(['verify', '--cwd', project, '--tsc', 'off']);
    assert.strictEqual(res.code, 1, res.stderr);
    const w = JSON.parse(res.stdout);
    assert.deepStrictEqual(w.failing, FAILING);
    assert.deepStrictEqual(w.loadErrorFiles, NOT_LOADED);
    assert.strictEqual(w.loadError, true);
    assert.strictEqual(w.failedCount, 2, 'node counted each file as a failing test; here it is not one');
    assert.ok(w.loadErrors.every((e: { message: string }) => /SyntaxError/.test(e.message)), 'each file says why it did not load');
  });

  it('fix says "2 failing, 3 test files did not load", rolls back an edit that stops them loading again, and goes green', async () => {
    server.push(answer(FIX_LEDGER), answer(BREAK_LEDGER), answer(FIX_ADD), answer(FIX_MUL));
    const res = await runCli(['fix', '--cwd', project, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream', '--tsc', 'off', '--state-dir', stateDir, '--patience', '3', '--json', '--verify-scope', 'full']);
    assert.strictEqual(res.code, 0, res.stderr);
    const report = JSON.parse(res.stdout);
    assert.deepStrictEqual(report.baseline.failing, FAILING);
    assert.deepStrictEqual(report.baseline.loadErrorFiles, NOT_LOADED);
    assert.deepStrictEqual(report.iterations.map((i: { verdict: string }) => i.verdict), ['progress', 'regression', 'progress', 'green']);
    const [loads, stopsLoading] = report.iterations;
    assert.deepStrictEqual(loads.loadErrorFiles, []);
    assert.deepStrictEqual(loads.failing, FAILING);
    assert.deepStrictEqual(stopsLoading.loadErrorFiles, NOT_LOADED);
    assert.deepStrictEqual(stopsLoading.failing, FAILING);
    assert.strictEqual(stopsLoading.rolledBack, true);
    assert.deepStrictEqual(report.final.loadErrorFiles, []);
    assert.deepStrictEqual(report.final.failing, []);

    assert.match(res.stderr, /baseline — 2 failing, 3 test files did not load, 0 type errors/);
    assert.match(res.stderr, /attempt 2: regression — 2 failing, 3 test files did not load, 0 type errors \(rolled back\)/);
    assert.doesNotMatch(res.stderr, /5 failing/);

    const firstPrompt = server.requests[0].body.messages.map((m: { content: string }) => m.content).join('\n');
    assert.match(firstPrompt, /## Test files that did not load \(3\)/);
    assert.match(firstPrompt, /SyntaxError/);
    assert.match(firstPrompt, /## Failing tests \(2\)/);
    assert.match(firstPrompt, /src\/ledger\.js\n```/, 'the file that keeps them from loading is shown');
  });
  it('failing tests first: an edit that stops them loading again is found by the next whole-suite run, and the fix kept alone @heavy', async () => {
    server.push(answer(FIX_LEDGER), answer(BREAK_LEDGER), answer(FIX_ADD), answer(FIX_MUL));
    const res = await runCli(['fix', '--cwd', project, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream', '--tsc', 'off', '--state-dir', stateDir, '--patience', '3', '--json']);
    assert.strictEqual(res.code, 0, res.stderr);
    const report = JSON.parse(res.stdout);
    // BREAK_LEDGER leaves the two failing tests failing: judged by them alone; FIX_ADD's whole run sees the files not
    // loading, so FIX_ADD is judged again on the best state without BREAK_LEDGER.
    assert.deepStrictEqual(report.iterations.map((i: { verdict: string }) => i.verdict), ['progress', 'no-progress', 'progress', 'green']);
    assert.match(report.iterations[2].note, /judged again on top of the best state, without attempt 2's edit/);
    assert.deepStrictEqual(report.final.loadErrorFiles, []);
    assert.deepStrictEqual(report.final.failing, []);
  });
});
