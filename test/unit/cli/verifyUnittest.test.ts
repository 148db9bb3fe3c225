// `greenloop verify` on a real unittest suite (test/fixtures/runners/unittest) run by Python's own runner, by pytest 9
// and by pytest with the pytest-subtests plugin: one failing set, in the contract's IDs, whoever runs it. Before
// unittest was read, its output was "not a test report Greenloop reads"; before subtests were, a test whose only
// failures were subtests was missing from pytest's failing set.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, runCli, tempDir } from '../support/cli';

const SUITE = path.join(ROOT, 'test', 'fixtures', 'runners', 'unittest');
const F = 'tests/test_calc.py';
const FAILING = [
  'tests/pkg/test_deep.py > TestDeep > test_deep_fails',
  `${F} > TestCalc > test_error`,
  `${F} > TestCalc > test_many`,
  `${F} > TestCalc > test_one_sub`,
  `${F} > TestCalc > test_sub`,
  `${F} > TestStrings > test_add`,
  `${F} > TestStrings > test_multiline_message`,
];

describe('greenloop verify reads python -m unittest, and pytest\'s subtests, to the same IDs (real runs)', function () {
  this.timeout(180_000);
  let dir = '';
  before(() => {
    // pytest 9 on the machine's python3; Debian's python3 with pytest-subtests: either missing fails here, by name.
    execFileSync('bash', [path.join(ROOT, 'test', 'fixtures', 'targeted', 'install-runners.sh'), 'unittest', 'pytest9', 'pytest-subtests'], { stdio: ['ignore', 'ignore', 'inherit'] });
    dir = tempDir('verify-unittest');
    fs.cpSync(SUITE, dir, { recursive: true });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const verify = async (testCmd: string) => {
    const res = await runCli(['verify', '--cwd', dir, '--test-cmd', testCmd, '--tsc', 'off'], { env: { PYTHONDONTWRITEBYTECODE: '1' } });
    assert.ok(res.stdout.trim(), res.stderr);
    return { code: res.code, stderr: res.stderr, w: JSON.parse(res.stdout) };
  };

  it('python -m unittest: the failing tests by file, class and name, a test whose only failures are subtests among them', async () => {
    const { code, w } = await verify('python3 -m unittest');
    assert.strictEqual(code, 1);
    assert.deepStrictEqual(w.failing, FAILING);
    assert.strictEqual(w.loadError, false);
    assert.deepStrictEqual(w.warnings, []);
  });

  it('pytest 9 and the pytest-subtests plugin on the same suite: the same failing set', async () => {
    for (const cmd of ['python3 -m pytest -q tests', '/usr/bin/python3 -m pytest -q -rA tests']) {
      const { code, w } = await verify(cmd);
      assert.strictEqual(code, 1, cmd);
      assert.deepStrictEqual(w.failing, FAILING, cmd);
      assert.deepStrictEqual(w.warnings, [], `${cmd}: no test named as shared`);
    }
  });

  it('a module that does not import is a load error of its file; all passing is green; a run of no test is not', async () => {
    const broken = await verify('python3 -m unittest discover -s broken');
    assert.strictEqual(broken.code, 1);
    assert.deepStrictEqual(broken.w.loadErrorFiles, ['broken/test_broken.py', 'broken/test_missing.py']);
    assert.deepStrictEqual(broken.w.loadErrors.map((e: { line?: number }) => e.line), [6, 3]);
    assert.deepStrictEqual(broken.w.failing, []);

    const green = await verify('python3 -m unittest discover -v -s allpass');
    assert.strictEqual(green.code, 0, green.stderr);
    assert.strictEqual(green.w.green, true);

    // unittest 3.11 says "Ran 0 tests … OK" and exits 0.
    const empty = await verify('python3 -m unittest discover -s empty');
    assert.strictEqual(empty.code, 1);
    assert.strictEqual(empty.w.green, false);
    assert.match(empty.w.warnings.join('\n'), /ran no tests/);
  });
});
