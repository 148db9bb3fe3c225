// Re-running only the tests that newly failed, with each runner's own filter, and the whole command otherwise.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { narrowTestCommand, shellQuote } from '../../src/verify/rerunFilter';
import { CommandVerifier } from '../../src/verify/commandVerifier';
import { testTimeOf } from '../../src/core/loop/testRuns';
import { tempProject } from './support/cli';

describe('narrowing a test command to a few tests', () => {
  const cwd = '/nowhere';
  const cases: Array<[string, Parameters<typeof narrowTestCommand>[2], string[], string | null]> = [
    ['node --test test/', 'tap', ['calc > adds'], "node --test '--test-name-pattern=^(?:calc adds|adds|calc > adds)$' test/"],
    ['npx mocha', 'mocha', ['Cart > total > adds (tax)'], "npx mocha --reporter spec --grep '^(?:Cart total adds \\(tax\\))$'"],
    ['npx jest --ci', 'jest', ['a > b', 'c > d'], "npx jest --ci --verbose -t '^(?:a b|c d)$'"],
    ['npx vitest run', 'vitest', ["it's fine"], "npx vitest run --reporter=json -t '^(?:it'\\''s fine)$'"],
    ['pytest -q', 'pytest', ['tests/test_calc.py > TestCalc > test_add', 'tests/test_calc.py > test_quotes[say "hi"]'], `pytest -q -rA tests/test_calc.py::TestCalc::test_add 'tests/test_calc.py::test_quotes[say "hi"]'`],
    ['go test ./...', 'go', ['TestDiv > by_zero', 'TestAdd'], "go test -v -run '^(?:TestDiv|TestAdd)$' ./..."],
    ['cargo test', 'cargo', ['tests > add > handles_negatives'], 'cargo test -- --exact tests::add::handles_negatives'],
    ['cargo test -- --test-threads=1', 'cargo', ['tests > zero'], 'cargo test -- --test-threads=1 --exact tests::zero'],
    ['cargo test', 'cargo', ['src/lib.rs - add (line 5)'], null],
    ['npm run build && npx mocha', 'mocha', ['a > b'], null],
    ['make test', 'mocha', ['a > b'], null],
    ['pytest -q', 'pytest', ['tests/t.py > test-with-dash'], 'pytest -q -rA tests/t.py::test-with-dash'],
  ];
  for (const [command, runner, ids, expected] of cases) {
    it(`${command} (${runner}) → ${expected ?? 'the whole command'}`, () => {
      const narrowed = narrowTestCommand(command, cwd, runner, ids);
      assert.strictEqual(narrowed?.command ?? null, expected);
    });
  }

  it('quotes for the shell so a title can hold anything', () => {
    assert.strictEqual(shellQuote("a'b $x `y`"), "'a'\\''b $x `y`'");
  });

  it('runs an npm test script directly, with node_modules/.bin on PATH, so node --test reads the filter as an option', () => {
    const dir = tempProject('calc', { git: false });
    try {
      const narrowed = narrowTestCommand('npm test', dir, 'tap', ['calc > adds']);
      assert.strictEqual(narrowed?.command, "node --test '--test-name-pattern=^(?:calc adds|adds|calc > adds)$' test/");
      assert.match(narrowed?.env?.PATH ?? '', new RegExp(`^${path.join(dir, 'node_modules', '.bin').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('CommandVerifier.rerun on a real suite', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = tempProject('calc', { git: false });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('runs only the asked-for test when the runner has a filter', async () => {
    const v = new CommandVerifier({ cwd: dir, testCommand: 'npm test', tsc: 'off', timeoutMs: 30_000 });
    await v.verify();
    const w = await v.rerun(['calc > adds']);
    assert.deepStrictEqual(w.failing, ['calc > adds']);
    assert.deepStrictEqual(w.skipped.sort(), ['calc > multiplies', 'calc > negates'], 'the other tests were filtered out');
  });

  it('falls back to the whole command when the narrowed run does not report the test', async () => {
    const marker = path.join(dir, 'full-runs');
    // A wrapper the filter cannot reach into: the rerun must still answer about the test asked for.
    const v = new CommandVerifier({ cwd: dir, testCommand: `echo x >> "${marker}"; node --test test/`, tsc: 'off', timeoutMs: 30_000 });
    await v.verify();
    const w = await v.rerun(['calc > negates']);
    assert.ok(w.ran?.includes('calc > negates'));
    assert.ok(!w.failing.includes('calc > negates'));
    assert.strictEqual(fs.readFileSync(marker, 'utf8').trim().split('\n').length, 2);
  });
});

describe('CommandVerifier.rerun of a test whose own name holds " > "', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(require('os').tmpdir(), 'gl-rerun-gt-'));
    fs.mkdirSync(path.join(dir, 'test'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'x', private: true, scripts: { test: 'node --test' } }));
    // Fails on its first run only, like a test racing a timer; a second test passes always.
    fs.writeFileSync(
      path.join(dir, 'test', 'clock.test.js'),
      "const test = require('node:test');\nconst fs = require('node:fs');\nconst runs = __dirname + '/../runs';\n" +
        "test('clock > settles within the deadline', () => { const n = fs.existsSync(runs) ? Number(fs.readFileSync(runs, 'utf8')) : 0; fs.writeFileSync(runs, String(n + 1)); if (n === 0) throw new Error('timed out'); });\n" +
        "test('other', () => {});\n",
    );
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('really runs it again (a filter that skipped it would make a flaky test look broken)', async () => {
    const v = new CommandVerifier({ cwd: dir, testCommand: 'npm test', tsc: 'off', timeoutMs: 30_000 });
    const first = await v.verify();
    assert.deepStrictEqual(first.failing, ['clock > settles within the deadline']);
    const w = await v.rerun(['clock > settles within the deadline']);
    assert.strictEqual(fs.readFileSync(path.join(dir, 'runs'), 'utf8'), '2', 'the test ran a second time');
    assert.deepStrictEqual(w.failing, []);
    assert.ok(!w.skipped.includes('clock > settles within the deadline'));
    assert.deepStrictEqual(w.skipped, ['other'], 'only the asked-for test ran');
  });
});

describe('test time is the test command\'s own', function () {
  this.timeout(60_000);
  it('the type check after the tests adds to the verification, not to the test time the report counts', async () => {
    const dir = tempProject('calc');
    // A tsc that takes 3 s: at least 3 s that are not test time, however fast the machine (a lower bound only).
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), '{ "include": ["src"] }\n');
    fs.mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'node_modules', '.bin', 'tsc'), '#!/bin/sh\nsleep 3\n', { mode: 0o755 });
    const v = new CommandVerifier({ cwd: dir, testCommand: 'node --test test/', tsc: 'on', timeoutMs: 50_000 });
    const w = await v.verify();
    assert.ok(w.testDurationMs !== undefined, 'the witness says how long the test command took');
    assert.ok(w.durationMs - w.testDurationMs! >= 2900, `verification ${w.durationMs} ms, tests ${w.testDurationMs} ms`);
    assert.strictEqual(testTimeOf(w), w.testDurationMs);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
