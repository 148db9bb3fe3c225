// Setup problems end before any model call, in one sentence; a Stop during the first test run records nothing.
// Real CLI, real git copies of a project, real test commands, a scripted model server on loopback.
import * as assert from 'assert';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { startCli } from '../support/cli';
import { fixHarness } from '../support/fixHarness';
import { waitUntil } from '../support/waitUntil';
import type { FixHarness } from '../support/fixHarness';
import { answer, FIX_ADD, FIX_MUL } from '../../support/calcAnswers';

describe('greenloop fix: setup problems before any model call, and Stop during the first test run (real CLI)', function () {
  this.timeout(120_000);
  let h: FixHarness;
  beforeEach(async () => {
    h = await fixHarness('calc');
  });
  afterEach(async () => {
    await h.close();
  });

  const historyFiles = () => {
    const dir = path.join(h.stateDir, 'history');
    return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => fs.statSync(path.join(dir, f)).size > 0) : [];
  };
  const whenExists = (file: string) => waitUntil(() => fs.existsSync(file), `${file} appearing`);

  it('Ctrl-C during the first test run records nothing: no count of the killed run, the run says it stopped before the first test run finished', async () => {
    // Three tests reported broken, then the rest of the suite still running when the person presses Ctrl-C.
    const marker = path.join(h.stateDir, 'half-way');
    h.write('slow-suite.js', [
      "console.log('TAP version 13');",
      "for (let i = 1; i <= 3; i++) console.log('not ok ' + i + ' - early ' + i);",
      `require('fs').writeFileSync(${JSON.stringify(marker)}, '');`,
      'setTimeout(() => {}, 60000);',
    ].join('\n'));
    const run = h.startFix([answer(FIX_ADD)], ['--test-cmd', 'node slow-suite.js']);
    await whenExists(marker);
    run.child.kill('SIGINT');
    const res = await run.done;
    assert.strictEqual(res.code, 1, res.stderr);
    assert.match(res.stderr, /greenloop: Stopped before the first test run finished; nothing was changed\./);
    assert.doesNotMatch(res.stderr, /\d+ failing|did not load/);
    assert.strictEqual(res.report.outcome, 'cancelled');
    assert.strictEqual(res.report.reasonText, 'Stopped before the first test run finished; nothing was changed.');
    assert.strictEqual(res.report.baseline, null, 'the killed run is no baseline');
    assert.strictEqual(h.server.requests.length, 0);
    assert.deepStrictEqual(historyFiles(), [], 'nothing recorded in the history');
  });

  const cannotRun: Array<{ name: string; cmd: string; prepare?: (h: FixHarness) => void; sentence: RegExp }> = [
    {
      name: 'an npm script package.json does not have',
      cmd: 'npm run test:ci',
      sentence: /^The test command `npm run test:ci` cannot run: package\.json in .* has no "test:ci" script; add that script or choose another test command\.$/,
    },
    {
      name: 'a script file that is not executable (exit 126)',
      cmd: './run-tests.sh',
      prepare: (x) => x.write('run-tests.sh', '#!/bin/sh\nnode --test test/\n'),
      sentence: /^The test command `\.\/run-tests\.sh` cannot run \(exit code 126: .*Permission denied\); make the file executable or run it through its interpreter\.$/,
    },
    {
      name: 'a runner that finds no test files',
      cmd: 'node --test tests-moved-away/',
      sentence: /^The test command `node --test tests-moved-away\/` found no tests to run \(Could not find '.*tests-moved-away'\); check its test path or pattern\.$/,
    },
  ];
  for (const c of cannotRun) {
    it(`${c.name} stops as verify-error before any model call, in one sentence`, async () => {
      c.prepare?.(h);
      const res = await h.fix([answer(FIX_ADD), answer(FIX_MUL)], ['--test-cmd', c.cmd]);
      assert.strictEqual(res.code, 1, res.stderr);
      assert.strictEqual(res.report.outcome, 'escalated');
      assert.strictEqual(res.report.reason, 'verify-error');
      assert.match(res.report.reasonText, c.sentence);
      assert.strictEqual(res.report.llmCalls, 0);
      assert.strictEqual(h.server.requests.length, 0, 'the model was never asked');
    });
  }

  it('a model server that cannot be reached is reported before the tests run, without retries', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const marker = path.join(h.stateDir, 'tests-ran');
    const res = await runFix(h, `http://127.0.0.1:${port}/v1`, `touch ${JSON.stringify(marker)}; node --test test/`);
    assert.strictEqual(res.code, 1, res.stderr);
    assert.strictEqual(res.report.reason, 'actor-error');
    assert.strictEqual(res.report.reasonText, `Could not connect to the model server at http://127.0.0.1:${port}/v1 (connection refused); check that it is running.`);
    assert.ok(!fs.existsSync(marker), 'the tests never ran');
    assert.doesNotMatch(res.stderr, /retry/);
    assert.match(res.stderr, /the model cannot be used; the tests were not run/);
  });

  it('a key the server refuses is reported before the tests run, in one sentence naming the key', async () => {
    const seen: string[] = [];
    const refusing = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Incorrect API key provided: sk-wrong-key-123.', type: 'invalid_request_error' } }));
    });
    await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', () => r()));
    try {
      const marker = path.join(h.stateDir, 'tests-ran');
      const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/v1`;
      const res = await runFix(h, url, `touch ${JSON.stringify(marker)}; node --test test/`, { GREENLOOP_TEST_KEY: 'sk-wrong-key-123' });
      assert.strictEqual(res.code, 1, res.stderr);
      assert.strictEqual(res.report.reason, 'actor-error');
      assert.match(res.report.reasonText, /^The model server refused the request \(401\): Incorrect API key provided: \*\*\*\.$/);
      assert.deepStrictEqual(seen, ['GET /v1/models'], 'one cheap request, no completion');
      assert.ok(!fs.existsSync(marker), 'the tests never ran');
    } finally {
      await new Promise<void>((r) => refusing.close(() => r()));
    }
  });

  it('a model server that answers the check goes on to the loop as before (the check is no model call)', async () => {
    const res = await h.fix([answer(FIX_ADD), answer(FIX_MUL)]);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(res.report.llmCalls, 2);
    assert.strictEqual(res.report.requests, 2, 'the model list is not counted as a model request');
    assert.strictEqual(h.server.requests.length, 2);
  });
});

async function runFix(h: FixHarness, baseUrl: string, testCmd: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stderr: string; report: any }> {
  const key = env.GREENLOOP_TEST_KEY ? ['--api-key-env', 'GREENLOOP_TEST_KEY'] : [];
  const { done } = startCli(['fix', '--cwd', h.project, '--actor', 'openai', '--base-url', baseUrl, '--model', 'scripted', '--no-stream', '--tsc', 'off',
    '--state-dir', h.stateDir, '--json', '--test-cmd', testCmd, ...key], { env, timeoutMs: 60_000 });
  const res = await done;
  return { code: res.code, stderr: res.stderr, report: JSON.parse(res.stdout) };
}
