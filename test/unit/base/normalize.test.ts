import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { normalizeMessage, normalizeOutput, signatureOf } from '../../../src/base/normalize';

const WS = '/home/dev/calc-app';
const ctx = { cwd: WS };

// [runner, raw line, normalized line]: lines as the runners print them (most from test/fixtures/captured).
const TABLE: Array<[string, string, string]> = [
  ['mocha', '  4 passing (5ms)', '  4 passing (<dur>)'],
  ['mocha', '  12 passing (2s)', '  12 passing (<dur>)'],
  ['mocha', '    ✔ slow one (1532ms)', '    ✔ slow one (<dur>)'],
  ['mocha', '      AssertionError [ERR_ASSERTION]: expected 3 to equal 4', '      AssertionError [ERR_ASSERTION]: expected 3 to equal 4'],
  ['mocha', `      at Context.<anonymous> (${WS}/test/calc.test.js:12:14)`, '      at Context.<anonymous> (<workspace>/test/calc.test.js:12:14)'],
  ['mocha tap', 'ok 1 - Calculator add adds # time=12.3ms', 'ok 1 - Calculator add adds # time=<dur>'],
  ['jest', 'Time:        0.237 s, estimated 1 s', 'Time:        <dur>, estimated 1 s'],
  ['jest', 'Time:        12 s', 'Time:        <dur>'],
  ['jest', '      ✕ parses a record into an object (4 ms)', '      ✕ parses a record into an object (<dur>)'],
  ['jest', '    Expected: 4\n    Received: 3', '    Expected: 4\n    Received: 3'],
  ['jest', 'Randomized with seed 1234567', 'Randomized with seed <seed>'],
  ['jest', '  ● Test suite failed to run\r\n\r\n    Cannot find module \'./calc\'', '  ● Test suite failed to run\n\n    Cannot find module \'./calc\''],
  ['vitest', '       × handles negatives 4ms', '       × handles negatives <dur>'],
  ['vitest', '   Start at  05:46:27', '   Start at  <time>'],
  ['vitest', '   Duration  552ms (transform 40ms, setup 0ms, import 72ms, tests 20ms, environment 0ms)',
    '   Duration  <dur> (transform <dur>, setup <dur>, import <dur>, tests <dur>, environment <dur>)'],
  ['vitest', ' ❯ mixed/calc.test.ts (6 tests | 3 failed | 1 skipped) 8ms', ' ❯ mixed/calc.test.ts (6 tests | 3 failed | 1 skipped) <dur>'],
  ['vitest', '\u001b[31m×\u001b[39m handles negatives \u001b[2m1ms\u001b[22m', '× handles negatives <dur>'],
  ['node spec', '    ✖ handles negatives (0.802418ms)', '    ✖ handles negatives (<dur>)'],
  ['node spec', 'ℹ duration_ms 137.377323', 'ℹ duration_ms <dur>'],
  ['node tap', '          duration_ms: 0.498494', '          duration_ms: <dur>'],
  ['node', '(node:48213) ExperimentalWarning: VM Modules is an experimental feature', '(node:<pid>) ExperimentalWarning: VM Modules is an experimental feature'],
  ['node', 'server started, pid 48213 on port 3000', 'server started, pid <pid> on port 3000'],
  ['node', 'Error: listen EADDRINUSE at 2024-03-05T10:11:12.345Z', 'Error: listen EADDRINUSE at <time>'],
  ['node', 'created Tue Mar 05 2024 10:11:12 GMT+0100 (Central European Standard Time) done', 'created <time> done'],
  ['node', 'Expires: Tue, 05 Mar 2024 10:11:12 GMT', 'Expires: <time>'],
  ['node', 'wrote /tmp/greenloop-a8Xk2q/out/report.json', 'wrote <tmp>/out/report.json'],
  ['node', `at file://${WS}/src/calc.js:3:9`, 'at file://<workspace>/src/calc.js:3:9'],
  ['node', 'Buffer <Buffer 0x7ffd5e3a9c10> freed', 'Buffer <Buffer 0x<addr>> freed'],
  ['pytest', 'self = <test_calc.TestCalc object at 0x7ff8a5540350>', 'self = <test_calc.TestCalc object at 0x<addr>>'],
  ['pytest', '6 failed, 3 passed, 1 skipped in 0.03s', '6 failed, 3 passed, 1 skipped in <dur>'],
  ['pytest', '======== 2 failed, 40 passed in 65.32s (0:01:05) ========', '======== 2 failed, 40 passed in <dur> (<time>) ========'],
  ['pytest', 'rootdir: /tmp/pytest-of-root/pytest-7', 'rootdir: <tmp>/pytest-7'],
  ['pytest', 'Using --randomly-seed=3920112', 'Using --randomly-seed=<seed>'],
  ['pytest', 'E       assert 3 == 4', 'E       assert 3 == 4'],
  ['pytest', 'FAILED tests/test_calc.py::test_add[10] - assert 11 == 12', 'FAILED tests/test_calc.py::test_add[10] - assert 11 == 12'],
  ['go', '--- FAIL: TestAdd (0.00s)', '--- FAIL: TestAdd (<dur>)'],
  ['go', 'FAIL\texample.com/greenloop/calc\t0.002s', 'FAIL\texample.com/greenloop/calc\t<dur>'],
  ['go', '    calc_test.go:12: Add(-1, -2) = -1; want -3', '    calc_test.go:12: Add(-1, -2) = -1; want -3'],
  ['go', '-test.shuffle 1709633472123456789', '-test.shuffle <seed>'],
  ['go', 'panic({0x508ec0, 0x551cc0})', 'panic({0x508ec0, 0x551cc0})'],
  ['cargo', '    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.52s', '    Finished `test` profile [unoptimized + debuginfo] target(s) in <dur>'],
  ['cargo', 'test result: FAILED. 2 passed; 4 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s',
    'test result: FAILED. 2 passed; 4 failed; 1 ignored; 0 measured; 0 filtered out; finished in <dur>'],
  ['cargo', '  left: 3\n right: 4', '  left: 3\n right: 4'],
  ['cargo', "thread 'tests::add' panicked at src/lib.rs:10:5:", "thread 'tests::add' panicked at src/lib.rs:10:5:"],
  ['syslog', 'worker[31337]: job failed', 'worker[<pid>]: job failed'],
  ['generic', 'Using seed 42; --seed=98765', 'Using seed <seed>; --seed=<seed>'],
  ['generic', 'version 1.2.3s and 10.0.0.1:8080 stay', 'version 1.2.3s and 10.0.0.1:8080 stay'],
  ['generic', 'listening on http://127.0.0.1:43567/ and [::1]:50123, port 61234', 'listening on http://127.0.0.1:<port>/ and [::1]:<port>, port <port>'],
  ['generic', 'fixed localhost:3000 and port 8080 stay', 'fixed localhost:3000 and port 8080 stay'],
];

describe('normalizeOutput', () => {
  for (const [runner, raw, expected] of TABLE) {
    it(`${runner}: ${JSON.stringify(raw).slice(0, 70)}`, () => {
      assert.strictEqual(normalizeOutput(raw, ctx), expected);
    });
  }

  it('replaces the workspace path and its realpath, but not a sibling folder that shares its prefix', () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-norm-'));
    try {
      const real = path.join(base, 'real');
      const link = path.join(base, 'link');
      fs.mkdirSync(real);
      fs.symlinkSync(real, link);
      const text = `at ${link}/a.js:1:2\nat ${real}/b.js:3:4\nat ${real}-old/c.js:5:6`;
      const out = normalizeOutput(text, { cwd: link });
      assert.strictEqual(out.split('\n')[0], 'at <workspace>/a.js:1:2');
      assert.strictEqual(out.split('\n')[1], 'at <workspace>/b.js:3:4');
      assert.ok(!out.split('\n')[2].includes('<workspace>'), out);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it('turns a message into one comparable line', () => {
    const a = normalizeMessage('AssertionError: expected 3 to equal 4\r\n    at /tmp/run-1a2b/x.js:1:1  (12ms)', ctx);
    const b = normalizeMessage('AssertionError:  expected 3 to equal 4\n\tat /tmp/run-9z8y/x.js:1:1 (7ms)\n', ctx);
    assert.strictEqual(a, 'AssertionError: expected 3 to equal 4 at <tmp>/x.js:1:1 (<dur>)');
    assert.strictEqual(a, b);
    assert.notStrictEqual(a, normalizeMessage('AssertionError: expected 3 to equal 5', ctx));
  });

  it('signs with sha256 hex', () => {
    assert.strictEqual(signatureOf(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('signatures of real node --test runs', function () {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-sig-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function writeSuite(expected: number): void {
    fs.writeFileSync(
      path.join(dir, 'calc.test.js'),
      [
        "const test = require('node:test');",
        "const assert = require('node:assert');",
        // Noise that differs on every run: a clock, a pid, a temp folder, an address-like value, a wait.
        'console.log(`started ${new Date().toISOString()} at ${new Date().toTimeString().slice(0, 8)} pid ${process.pid}`);',
        "const scratch = require('fs').mkdtempSync(require('os').tmpdir() + '/calc-');",
        "console.log(`scratch ${scratch}/data.json`);",
        "require('fs').rmdirSync(scratch);",
        "console.log(`handle 0x${(0x7f0000000000 + Math.floor(Math.random() * 1e9)).toString(16)}`);",
        "test('adds', async () => { await new Promise((r) => setTimeout(r, Math.random() * 30)); assert.strictEqual(1 + 2, 3); });",
        `test('subtracts', () => { assert.strictEqual(5 - 2, ${expected}); });`,
        '',
      ].join('\n'),
    );
  }

  function run(reporter: string): string {
    try {
      return execFileSync(process.execPath, ['--test', `--test-reporter=${reporter}`, 'calc.test.js'], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '', FORCE_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (err) {
      return String((err as { stdout: string }).stdout);
    }
  }

  for (const reporter of ['spec', 'tap']) {
    it(`gives two runs of the same failing suite one signature (${reporter} reporter), and a changed assertion another`, () => {
      writeSuite(4);
      const first = run(reporter);
      const second = run(reporter);
      assert.notStrictEqual(first, second, 'the raw outputs differ (otherwise this test proves nothing)');
      assert.match(first, /subtracts/);
      const n1 = normalizeOutput(first, { cwd: dir });
      const n2 = normalizeOutput(second, { cwd: dir });
      assert.strictEqual(n1, n2);
      assert.strictEqual(signatureOf(n1), signatureOf(n2));

      writeSuite(5);
      const changed = normalizeOutput(run(reporter), { cwd: dir });
      assert.notStrictEqual(signatureOf(changed), signatureOf(n1));
    });
  }
});
