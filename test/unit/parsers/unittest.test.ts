// Expected values come from the suites in test/fixtures/runners/unittest (which tests fail is decided there), read back
// from real `python -m unittest` output captured by test/fixtures/regenerate/unittest.sh: Python 3.11's
// `(module.Class.test)` names, 3.10's `(module.Class)`, and 3.12's "NO TESTS RAN".
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { unittestParser } from '../../../src/runners/unittest/parser';
import { detectFormat, tidyResult } from '../../../src/runners/parseOutput';
import type { LineOptions, ParseResult } from '../../../src/runners/types';
import { failureOf, ids, messageOf, otherParsers, readCapture } from './support';

const SUITE = path.join(__dirname, '..', '..', 'fixtures', 'runners', 'unittest');
const read = (name: string): string => readCapture('unittest', name);
/** Read as the verifier reads a run: in the suite's folder, with the command that ran it. */
const parse = (name: string, command = 'python3 -m unittest', opts: LineOptions = { cwd: SUITE, command }): ParseResult => tidyResult(unittestParser.parse(read(name), opts));

const F = 'tests/test_calc.py';
const MIXED_FAILING = [
  `${F} > TestCalc > test_sub`,
  `${F} > TestCalc > test_error`,
  `${F} > TestCalc > test_many`,
  `${F} > TestCalc > test_one_sub`,
  `${F} > TestStrings > test_add`,
  `${F} > TestStrings > test_multiline_message`,
  'tests/pkg/test_deep.py > TestDeep > test_deep_fails',
].sort();
const MIXED = ['default-mixed.txt', 'v-mixed.txt', 'default-mixed-old.txt', 'v-mixed-old.txt'];

describe('unittest parser', () => {
  for (const name of MIXED) {
    it(`${name}: the contract's IDs (file > class > test), counts and messages`, () => {
      const r = parse(name);
      assert.equal(r.runner, 'unittest');
      assert.deepEqual(ids(r), MIXED_FAILING);
      // Ran 13: 7 failing tests, a skip and an expected failure (both skipped, as pytest counts them), 4 passed.
      assert.equal(r.passedCount, 4);
      assert.equal(r.failedCount, 7);
      assert.equal(r.skippedCount, 2);
      assert.equal(r.loadError, false);
      assert.equal(r.sharedIds, undefined);
      // Each test's own file, even when the error was raised in calc.py or a helper's assertion failed in helpers.py.
      assert.equal(failureOf(r, `${F} > TestCalc > test_error`).file, F);
      assert.equal(failureOf(r, `${F} > TestCalc > test_many`).file, F);
      assert.equal(failureOf(r, 'tests/pkg/test_deep.py > TestDeep > test_deep_fails').file, 'tests/pkg/test_deep.py');
      // The exception first, then the traceback, whose frames point the prompt at the code.
      const error = messageOf(r, `${F} > TestCalc > test_error`);
      assert.match(error, /^TypeError: unsupported operand type\(s\) for \+: 'int' and 'str'\nTraceback \(most recent call last\):\n/);
      assert.match(error, /File ".*calc\.py", line 2, in add/);
      assert.match(messageOf(r, `${F} > TestCalc > test_sub`), /^AssertionError: 8 != 2\n/);
      assert.match(messageOf(r, `${F} > TestStrings > test_multiline_message`), /^AssertionError: 'line one\\nline 2\\nline three' != .*\n {2}line one\n- line 2\n/);
    });
  }

  it('a test whose only failures are subtests fails once, with each failing subtest\'s parameters and message', () => {
    for (const name of MIXED) {
      const r = parse(name);
      const many = messageOf(r, `${F} > TestCalc > test_many`);
      assert.match(many, /^\(a=1, b=1\): AssertionError: 2 != 0\n/, name);
      assert.match(many, /\n\n\(a=2, b=1\): AssertionError: 3 != 1\n/, name);
      assert.doesNotMatch(many, /\(a=0, b=0\)/, `${name}: the passing subtest is not a failure`);
      assert.match(messageOf(r, `${F} > TestCalc > test_one_sub`), /^\[same value\] \(a=1\): AssertionError: 2 != 0\n/, name);
      assert.ok(!ids(r).includes(`${F} > TestCalc > test_subs_pass`), `${name}: subtests that all passed`);
      assert.ok(!ids(r).some((id) => id.includes('helpers')), `${name}: never under the helper's file`);
    }
  });

  it('-v names every test with its outcome, docstrings, printed output and 3.10\'s chained subtest lines included', () => {
    for (const name of ['v-mixed.txt', 'v-mixed-old.txt']) {
      const tests = new Map(parse(name).tests!.map((t) => [t.id, t.status]));
      assert.equal(tests.size, 13, name);
      assert.equal(tests.get(`${F} > TestCalc > test_add`), 'passed', `${name}: a docstring's line carries the outcome`);
      assert.equal(tests.get(`${F} > TestStrings > test_prints`), 'passed', `${name}: the outcome after the test's own output`);
      assert.equal(tests.get(`${F} > TestCalc > test_later`), 'skipped', name);
      assert.equal(tests.get(`${F} > TestCalc > test_known_bug`), 'skipped', name);
      assert.equal(tests.get(`${F} > TestCalc > test_many`), 'failed', name);
      assert.equal(tests.get(`${F} > TestCalc > test_subs_pass`), 'passed', name);
      assert.equal(tests.get('tests/pkg/test_deep.py > TestDeep > test_deep'), 'passed', name);
    }
    // The default reporter names only failures: what ran is known by count.
    assert.equal(parse('default-mixed.txt').tests, null);
  });

  it('3.11\'s names and the older (module.Class) form read the same', () => {
    assert.deepEqual(parse('default-mixed-old.txt').failing.map((f) => [f.id, f.file]), parse('default-mixed.txt').failing.map((f) => [f.id, f.file]));
    assert.deepEqual(parse('v-mixed-old.txt').tests!.map((t) => `${t.id} ${t.status}`).sort(), parse('v-mixed.txt').tests!.map((t) => `${t.id} ${t.status}`).sort());
  });

  it('without the folder or the command (a capture read elsewhere), modules are the names\' lower-case parts', () => {
    const r = unittestParser.parse(read('default-mixed.txt'));
    assert.deepEqual(ids(r), MIXED_FAILING);
  });

  it('a discovery start folder that is no package names modules from there: the IDs keep the folder', () => {
    const command = 'python3 -m unittest discover -v -s allpass';
    const r = parse('v-allpass.txt', command);
    assert.deepEqual(r.tests!.map((t) => t.id), ['allpass/test_ok.py > TestOk > test_one', 'allpass/test_ok.py > TestOk > test_two']);
    assert.deepEqual([r.passedCount, r.failedCount, r.failing.length, r.loadError], [2, 0, 0, false]);
    // The command alone says as much, without the files at hand.
    assert.deepEqual(parse('v-allpass.txt', command, { command }).tests, r.tests);
    const plain = parse('default-allpass.txt', 'python3 -m unittest discover -s allpass');
    assert.deepEqual([plain.passedCount, plain.failedCount, plain.tests], [2, 0, null]);
  });

  for (const name of ['default-loaderror.txt', 'default-loaderror-old.txt']) {
    it(`${name}: "Failed to import test module" is a load error of that file, with its line, never a failing test`, () => {
      const r = parse(name, 'python3 -m unittest discover -s broken');
      assert.equal(r.loadError, true);
      assert.deepEqual(r.failing, []);
      assert.deepEqual(r.loadErrors!.map((e) => [e.file, e.line]), [['broken/test_broken.py', 6], ['broken/test_missing.py', 3]]);
      assert.match(r.loadErrors![0].message, /^SyntaxError: '\(' was never closed\n/);
      assert.match(r.loadErrors![1].message, /^ModuleNotFoundError: No module named 'no_such_module'\n/);
      // unittest's own loader frames say nothing about the workspace.
      assert.doesNotMatch(r.loadErrors![0].message, /unittest[\\/]loader\.py/);
      // The module that imported runs: one test passed; the two that did not import are not tests.
      assert.equal(r.passedCount, 1);
      assert.equal(r.failedCount, 0);
    });
  }

  for (const name of ['v-oddities.txt', 'default-oddities.txt']) {
    it(`${name}: a setUpClass that raises fails under its class, an unexpected success fails its test`, () => {
      const r = parse(name, 'python3 -m unittest discover -s oddities');
      assert.deepEqual(ids(r), ['oddities/test_oddities.py > TestRuns > test_fixed_since', 'oddities/test_oddities.py > TestSetUp > setUpClass']);
      assert.match(messageOf(r, 'oddities/test_oddities.py > TestSetUp > setUpClass'), /^RuntimeError: the database is not there\n/);
      assert.match(messageOf(r, 'oddities/test_oddities.py > TestRuns > test_fixed_since'), /^unexpected success/);
      assert.deepEqual([r.passedCount, r.failedCount, r.loadError], [1, 2, false]);
    });
  }

  it('a name on the command line that names nothing is a load error, the named tests are read as usual', () => {
    const r = parse('v-named.txt', 'python3 -m unittest -v tests.test_calc.TestCalc.test_sub tests.pkg.test_deep tests.test_calc.TestCalc.test_gone');
    assert.equal(r.loadError, true);
    assert.deepEqual(ids(r), ['tests/pkg/test_deep.py > TestDeep > test_deep_fails', `${F} > TestCalc > test_sub`]);
    assert.deepEqual(r.tests!.map((t) => t.id).sort(), ['tests/pkg/test_deep.py > TestDeep > test_deep', ...ids(r)].sort());
  });

  it('"Ran 0 tests" counts nothing run, on 3.11 (OK) and 3.12 (NO TESTS RAN)', () => {
    for (const name of ['default-empty.txt', 'default-empty-new.txt']) {
      const r = parse(name, 'python3 -m unittest discover -s empty');
      assert.deepEqual([r.passedCount, r.failedCount, r.skippedCount, r.failing.length, r.loadError], [0, 0, 0, 0, false], name);
    }
  });

  it('Django\'s manage.py test prints unittest\'s report: its app\'s tests.py by the same rules', () => {
    const cwd = path.join(SUITE, 'django');
    for (const name of ['django-default.txt', 'django-v2.txt']) {
      const r = tidyResult(unittestParser.parse(read(name), { cwd, command: 'python3 manage.py test' }));
      assert.equal(detectFormat(read(name)), 'unittest', name);
      assert.deepEqual(ids(r), ['shop/tests.py > PriceTests > test_each', 'shop/tests.py > PriceTests > test_total'], name);
      assert.match(messageOf(r, 'shop/tests.py > PriceTests > test_each'), /^\(net=10\): AssertionError: 12\.5 != 12\.0\n/, name);
      assert.deepEqual([r.passedCount, r.failedCount], [1, 2], name);
    }
    assert.deepEqual(parse('django-v2.txt').tests!.map((t) => `${t.id} ${t.status}`).sort(),
      ['shop/tests.py > PriceTests > test_each failed', 'shop/tests.py > PriceTests > test_total failed', 'shop/tests.py > PriceTests > test_zero passed']);
  });

  it('a test looping over thousands of failing subtests is one failure with a bounded message, the rest counted', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-unittest-subtests-'));
    try {
      fs.writeFileSync(path.join(dir, 'test_loop.py'), 'import unittest\n\n\nclass TestLoop(unittest.TestCase):\n    def test_each(self):\n'
        + '        for i in range(1000):\n            with self.subTest(i=i):\n                self.assertEqual(i, -1)\n');
      const run = spawnSync('python3', ['-m', 'unittest'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
      assert.match(run.stderr, /FAILED \(failures=1000\)/);
      const r = unittestParser.parse(run.stderr, { cwd: dir, command: 'python3 -m unittest' });
      assert.deepEqual(ids(r), ['test_loop.py > TestLoop > test_each']);
      assert.deepEqual([r.passedCount, r.failedCount], [0, 1]);
      const message = messageOf(r, 'test_loop.py > TestLoop > test_each');
      assert.match(message, /^\(i=0\): AssertionError: 0 != -1\n/);
      assert.ok(message.length < 20_000, `bounded: ${message.length} characters`);
      assert.match(message, /… and \d+ more failing subtests$/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('auto detection picks unittest for every capture, and no other parser claims one', () => {
    const names = ['default-mixed.txt', 'v-mixed.txt', 'default-mixed-old.txt', 'v-mixed-old.txt', 'default-allpass.txt', 'v-allpass.txt',
      'default-loaderror.txt', 'default-loaderror-old.txt', 'v-oddities.txt', 'default-oddities.txt', 'v-named.txt', 'default-empty.txt', 'default-empty-new.txt'];
    for (const name of names) {
      assert.equal(detectFormat(read(name)), 'unittest', name);
      for (const other of otherParsers('unittest')) assert.ok(other.detect(read(name)) < unittestParser.detect(read(name)), `${other.format} on ${name}`);
    }
  });

  it('scores other runners\' output zero', () => {
    for (const [runner, name] of [['pytest', 'q-mixed.txt'], ['pytest', 'subtests-q.txt'], ['go', 'v-mixed.txt'], ['cargo', 'mixed.txt']]) {
      assert.equal(unittestParser.detect(readCapture(runner, name)), 0, `${runner}/${name}`);
    }
  });
});
