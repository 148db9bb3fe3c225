// The witness on real runs that do not tell the whole story at once: runners that stop at the first failure, and
// commands that fail after every test passed. Real CLI, real git temp repos, real runners, scripted model server.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { answer, edit, FIX_ADD, FIX_MUL } from '../../support/calcAnswers';

describe('greenloop fix on runs that stop early or fail after the tests (real CLI)', function () {
  this.timeout(180_000);
  let h: FixHarness;
  beforeEach(async () => {
    h = await fixHarness('calc');
  });
  afterEach(async () => {
    await h.close();
  });

  it('a fix that lets a fail-fast run reach further is progress, and the failures it reveals are newly visible', async () => {
    // Two test files run one after the other, the second only when the first passed: the shape of cargo's
    // fail-fast, `pytest -x` or `--bail`.
    fs.rmSync(path.join(h.project, 'test', 'calc.test.js'));
    const file = (name: string, body: string) => h.write(`test/${name}.test.js`, `'use strict';\nconst { it } = require('node:test');\nconst assert = require('node:assert/strict');\nconst { add, mul, neg } = require('../src/calc');\n${body}\n`);
    file('a', "it('adds', () => assert.equal(add(2, 3), 5));\nit('negates', () => assert.equal(neg(4), -4));");
    file('b', "it('multiplies', () => assert.equal(mul(2, 3), 6));");
    const res = await h.fix([answer(FIX_ADD), answer(FIX_MUL)], ['--test-cmd', 'node --test test/a.test.js && node --test test/b.test.js']);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.deepStrictEqual(res.report.baseline.failing, ['adds']);
    assert.deepStrictEqual(res.report.iterations.map((i: any) => i.verdict), ['progress', 'green']);
    assert.match(res.report.iterations[0].note, /fixed `adds`; newly visible \(did not run before\): `multiplies`/);
  });

  it('cargo test without --no-fail-fast: fixing the unit tests reveals the integration test, and the loop goes on to green @heavy', async function () {
    const dir = h.project;
    for (const f of fs.readdirSync(dir)) if (f !== '.git') fs.rmSync(path.join(dir, f), { recursive: true, force: true });
    h.write('Cargo.toml', '[package]\nname = "ff"\nversion = "0.1.0"\nedition = "2021"\n');
    h.write('src/lib.rs', [
      'pub fn add(a: i32, b: i32) -> i32 {',
      '    a - b',
      '}',
      '',
      'pub fn mul(a: i32, b: i32) -> i32 {',
      '    a + b',
      '}',
      '',
      '#[cfg(test)]',
      'mod tests {',
      '    #[test]',
      '    fn adds() {',
      '        assert_eq!(super::add(2, 3), 5);',
      '    }',
      '}',
      '',
    ].join('\n'));
    h.write('tests/integration.rs', 'use ff::mul;\n\n#[test]\nfn multiplies() {\n    assert_eq!(mul(2, 3), 6);\n}\n');
    execFileSync('git', ['add', '-A'], { cwd: dir });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'cargo'], { cwd: dir });
    const fixAdd = edit('src/lib.rs', 'pub fn add(a: i32, b: i32) -> i32 {\n    a - b', 'pub fn add(a: i32, b: i32) -> i32 {\n    a + b', 'add subtracts.');
    const fixMul = edit('src/lib.rs', 'pub fn mul(a: i32, b: i32) -> i32 {\n    a + b', 'pub fn mul(a: i32, b: i32) -> i32 {\n    a * b', 'mul adds.');
    const env = { CARGO_TERM_COLOR: 'never', CARGO_TERM_PROGRESS_WHEN: 'never', RUST_BACKTRACE: '0' };
    const res = await h.fix([answer(fixAdd), answer(fixMul)], ['--test-cmd', 'cargo test --offline'], { env, timeoutMs: 170_000 });
    assert.strictEqual(res.code, 0, res.stderr);
    assert.deepStrictEqual(res.report.baseline.failing, ['tests > adds']);
    assert.deepStrictEqual(res.report.iterations.map((i: any) => i.verdict), ['progress', 'green']);
    assert.match(res.report.iterations[0].note, /newly visible \(did not run before\): `multiplies`/);
    assert.match(res.report.warnings.join(' '), /The test run stopped early: cargo test stopped at the first test binary with a failure.*--no-fail-fast/);
    assert.match(h.prompt(0), /## The test run stopped early/);
  });

  it('tests that all pass under a command that still fails are progress, not a suite that no longer loads', async () => {
    const res = await h.fix([answer(FIX_ADD), answer(FIX_MUL), answer('No more ideas.')], ['--test-cmd', 'node --test test/ && echo "coverage 41% is below the 90% threshold" && exit 3', '--patience', '2']);
    assert.strictEqual(res.code, 1);
    assert.deepStrictEqual(res.report.iterations.map((i: any) => i.verdict).slice(0, 2), ['progress', 'progress']);
    assert.strictEqual(res.report.iterations[1].rolledBack, false);
    assert.match(h.prompt(2), /## The tests passed, but the test command failed\n```\nAll 3 tests passed, but the test command exited with code 3; its last output:[\s\S]*coverage 41% is below the 90% threshold/);
    assert.match(h.read('src/calc.js'), /return a \* b;/, 'the fixes are kept');
  });

  it('an output Greenloop cannot read stops the run before any model call, in one sentence naming the reporter', async () => {
    const summary = path.join(__dirname, '..', '..', 'fixtures', 'captured', 'jest', 'summary-mixed.txt');
    const res = await h.fix([answer(FIX_ADD)], ['--test-cmd', `cat "${summary}"; exit 1`]);
    assert.strictEqual(res.code, 1, res.stderr);
    assert.strictEqual(res.report.reason, 'verify-error');
    assert.match(res.report.reasonText, /counts 6 failing tests but names none \(jest's summary reporter\); run the tests with a reporter that names each test/);
    assert.strictEqual(h.server.requests.length, 0);
  });
});
