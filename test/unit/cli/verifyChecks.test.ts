// `greenloop verify --check` and `greenloop parse --format <checker>` as a user runs them: each diagnostic in the
// contract's shape plus its `source`, and one sentence for what cannot be read.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, runCli, tempProject } from '../support/cli';
import { needToolchain } from '../support/toolchains';

const captured = (rel: string) => path.join(ROOT, 'test', 'fixtures', 'captured', 'checkers', rel);

describe('greenloop verify --check and parse --format <checker>', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('verify: a check\'s errors join the diagnostics with their source, and the witness is not green', async () => {
    needToolchain('mypy');
    const dir = tempProject('pyprices', { git: false });
    dirs.push(dir);
    const res = await runCli(['verify', '--cwd', dir, '--test-cmd', 'python3 -m pytest -q -p no:cacheprovider tests', '--tsc', 'off', '--check', 'mypy app']);
    assert.strictEqual(res.code, 1, res.stderr);
    const w = JSON.parse(res.stdout);
    assert.strictEqual(w.green, false);
    assert.deepStrictEqual(w.failing, []);
    assert.deepStrictEqual(w.diagnostics, [
      { file: 'app/prices.py', line: 2, column: 0, code: 'return-value', message: 'Incompatible return value type (got "int", expected "str")', source: 'mypy' },
    ]);
  });

  it('verify: a check that cannot run is said in one line and the witness is never green', async () => {
    const dir = tempProject('pyprices', { git: false });
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'app', 'prices.py'), 'def cents(amount: float) -> int:\n    return round(amount * 100)\n\n\ndef label(amount: float) -> str:\n    return f"{cents(amount)} cents"\n');
    const res = await runCli(['verify', '--cwd', dir, '--test-cmd', 'python3 -m pytest -q -p no:cacheprovider tests', '--tsc', 'off', '--check', 'no-such-linter-xyz app']);
    assert.strictEqual(res.code, 1, res.stderr);
    assert.strictEqual(JSON.parse(res.stdout).green, false);
    assert.match(res.stderr, /greenloop: warning: The check command `no-such-linter-xyz app` cannot run: `no-such-linter-xyz` is not installed or not on PATH/);
  });

  it('parse --format mypy / eslint prints the diagnostics that count with their source, and the others apart', async () => {
    const mypy = await runCli(['parse', '--format', 'mypy', captured('mypy/errors.txt')]);
    assert.strictEqual(mypy.code, 0, mypy.stderr);
    const m = JSON.parse(mypy.stdout);
    assert.strictEqual(m.format, 'mypy');
    assert.deepStrictEqual(m.diagnostics[0], { file: 'app/money.py', line: 3, column: 0, code: 'assignment', message: 'Incompatible types in assignment (expression has type "str", variable has type "int")', source: 'mypy', severity: 'error' });
    const eslint = await runCli(['parse', '--format', 'eslint', captured('eslint/errors.txt')]);
    const e = JSON.parse(eslint.stdout);
    assert.ok(e.diagnostics.length > 0 && e.diagnostics.every((d: { source: string; severity: string }) => d.source === 'eslint' && d.severity === 'error'));
    assert.ok(e.others.some((d: { severity: string }) => d.severity === 'warning'), 'warnings are shown apart, not counted');
    assert.strictEqual(e.checkedIsComplete, true);
    const warnings = JSON.parse((await runCli(['parse', '--format', 'eslint', '--warnings', captured('eslint/errors.txt')])).stdout);
    assert.strictEqual(warnings.diagnostics.length, e.diagnostics.length + e.others.length);
  });

  it('parse: an output that is not the named checker\'s, or an unknown format, is one sentence and exit 2', async () => {
    const wrong = await runCli(['parse', '--format', 'pyright', captured('mypy/errors.txt')]);
    assert.strictEqual(wrong.code, 2);
    assert.match(wrong.stderr, /^greenloop: This is not pyright's output: /);
    const unknown = await runCli(['parse', '--format', 'ruff', '-'], { input: '' });
    assert.strictEqual(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown format "ruff"; use one of auto, .* \(test runners\) or eslint, biome, .* \(checkers\)\./);
  });
});
