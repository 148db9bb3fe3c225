// Expected values come from the suites in test/fixtures/runners/pytest (which tests fail is decided there),
// read back from real pytest output captured by test/fixtures/regenerate/pytest.sh.
import { strict as assert } from 'assert';
import { pytestParser } from '../../../src/runners/pytest/parser';
import { detectFormat } from '../../../src/runners/parseOutput';
import type { ParseResult } from '../../../src/runners/types';
import { ids, messageOf, readCapture } from './support';

const read = (name: string): string => readCapture('pytest', name);
const parse = (name: string): ParseResult => pytestParser.parse(read(name));

const F = 'tests/test_calc.py';
const MIXED_FAILING = [
  `${F} > TestCalc > test_sub`,
  `${F} > TestCalc > TestNested > test_deep_fails`,
  `${F} > TestStrings > test_add`,
  `${F} > TestStrings > test_type_error`,
  `${F} > test_quotes[say "hi" (loudly)]`,
  `${F} > test_multiline_message`,
].sort();

describe('pytest parser', () => {
  for (const name of ['q-mixed.txt', 'q-rN-mixed.txt', 'v-rN-mixed.txt', 'rA-mixed.txt', 'q-mixed-color.txt',
    'rA-mixed-color.txt']) {
    it(`${name}: node ids of failing tests, counts and messages`, () => {
      const r = parse(name);
      assert.deepEqual(ids(r), MIXED_FAILING);
      assert.equal(r.passedCount, 3);
      assert.equal(r.failedCount, 6);
      assert.equal(r.skippedCount, 1);
      assert.equal(r.loadError, false);
      assert.deepEqual(r.diagnostics, []);
      // The test file, even when the error was raised in calc.py.
      assert.ok(r.failing.every((f) => f.file === F));
      assert.ok(!ids(r).includes(`${F} > TestCalc > test_add`), 'same leaf name in another class passed');
      // What was wrong, then where: the traceback's places, innermost first (calc.py's line, then the test's).
      assert.equal(
        messageOf(r, `${F} > TestStrings > test_type_error`),
        "TypeError: unsupported operand type(s) for +: 'int' and 'str'\nTraceback, innermost first:\ncalc.py:2: TypeError\ntests/test_calc.py:28:",
      );
      assert.match(
        messageOf(r, `${F} > test_multiline_message`),
        /^AssertionError: greeting differs\n {2}second line of the message\nassert 'line one\\nline 2\\nline three' ==/,
      );
      assert.match(messageOf(r, `${F} > TestCalc > test_sub`), /^assert 8 == 2\n/);
    });
  }

  it('the colour captures parse exactly like their plain twins', () => {
    assert.deepEqual(parse('q-mixed-color.txt'), parse('q-mixed.txt'));
    assert.deepEqual(parse('rA-mixed-color.txt'), parse('rA-mixed.txt'));
  });

  it('reads the same failures with and without the short summary', () => {
    assert.deepEqual(parse('q-rN-mixed.txt').failing, parse('q-mixed.txt').failing);
  });

  for (const name of ['q-allpass.txt', 'rA-allpass.txt']) {
    it(`${name}: all passing`, () => {
      const r = parse(name);
      assert.deepEqual(r.failing, []);
      assert.equal(r.passedCount, 2);
      assert.equal(r.failedCount, 0);
      assert.equal(r.skippedCount, 0);
      assert.equal(r.loadError, false);
    });
  }

  for (const name of ['q-loaderror.txt', 'rA-loaderror.txt']) {
    it(`${name}: a syntax error during collection is a load error, not a failing test`, () => {
      const r = parse(name);
      assert.equal(r.loadError, true);
      assert.deepEqual(r.failing, []);
      assert.equal(r.passedCount, 0);
      assert.equal(r.failedCount, 0);
    });
  }

  it('auto detection picks pytest for every capture', () => {
    for (const name of ['q-mixed.txt', 'q-rN-mixed.txt', 'v-rN-mixed.txt', 'rA-mixed.txt', 'q-mixed-color.txt', 'q-allpass.txt',
      'rA-allpass.txt', 'q-loaderror.txt', 'rA-loaderror.txt']) {
      assert.equal(detectFormat(read(name)), 'pytest', name);
    }
  });

  it('scores other runners\' output low', () => {
    const go = readCapture('go', 'v-mixed.txt');
    const cargo = readCapture('cargo', 'mixed.txt');
    assert.ok(pytestParser.detect(go) < 0.2);
    assert.ok(pytestParser.detect(cargo) < 0.2);
  });
});
