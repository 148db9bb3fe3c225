// pytest's subtests, captured by test/fixtures/regenerate/pytest.sh: pytest 9's own (`SUBFAILED(a=1, b=1) node - msg`)
// and the pytest-subtests plugin before it (`SUBFAIL node - msg`, Debian's 0.9), on unittest's self.subTest() — the
// suite of test/fixtures/runners/unittest, which unittest's own runner reads to the same IDs — and on pytest's
// `subtests` fixture. pytest reports a unittest test whose subtests failed as passed; to Greenloop it fails.
import { strict as assert } from 'assert';
import * as path from 'path';
import { pytestParser } from '../../../src/runners/pytest/parser';
import { unittestParser } from '../../../src/runners/unittest/parser';
import { detectFormat, tidyResult } from '../../../src/runners/parseOutput';
import type { ParseResult } from '../../../src/runners/types';
import { failureOf, ids, messageOf, readCapture } from './support';

// As the verifier reads it: one entry per ID, and the IDs reported more than once said (sharedIds).
const parse = (name: string): ParseResult => tidyResult(pytestParser.parse(readCapture('pytest', name)));
const F = 'tests/test_calc.py';
const MANY = `${F} > TestCalc > test_many`;
const UNITTEST_SUITE = ['subtests-q.txt', 'subtests-rA.txt', 'subtests-v-rN.txt', 'subtests-plugin-q.txt', 'subtests-plugin-rA.txt', 'subtests-plugin-v-rN.txt'];
const FIXTURE = 'subtests/test_fixture_subtests.py > test_fixture_subs';

/** The same suite as unittest's runner reads it, in its folder. */
function unittestRead(): ParseResult {
  const cwd = path.join(__dirname, '..', '..', 'fixtures', 'runners', 'unittest');
  return unittestParser.parse(readCapture('unittest', 'default-mixed.txt'), { cwd, command: 'python3 -m unittest' });
}

describe('pytest parser: subtests', () => {
  for (const name of UNITTEST_SUITE) {
    it(`${name}: failing subtests fail their test, under the same IDs and counts as unittest's own runner gives`, () => {
      const r = parse(name);
      const own = unittestRead();
      assert.equal(detectFormat(readCapture('pytest', name)), 'pytest');
      assert.deepEqual(ids(r), ids(own));
      assert.ok(ids(r).includes(MANY), 'a test whose only failures are subtests');
      // pytest counts each failed subtest and their test as passed; as tests: 7 failed, 4 passed, 2 skipped, as unittest.
      assert.deepEqual([r.passedCount, r.failedCount, r.skippedCount], [own.passedCount, own.failedCount, own.skippedCount]);
      assert.equal(r.sharedIds, undefined, 'a test named by -v, the summary and its subtests is one report');
      // Its own file, never the helper's its traceback ends in.
      assert.equal(failureOf(r, MANY).file, F);
      const many = messageOf(r, MANY);
      assert.match(many, /^\(a=1, b=1\): AssertionError: 2 != 0/);
      assert.match(many, /\n\n\(a=2, b=1\): AssertionError: 3 != 1/);
      assert.match(messageOf(r, `${F} > TestCalc > test_one_sub`), /^\[same value\] \(a=1\): AssertionError: 2 != 0/);
      // The message begins as unittest's does: the subtest, then the exception.
      assert.equal(many.split('\n')[0], messageOf(own, MANY).split('\n')[0]);
      if (r.tests) {
        const status = new Map(r.tests.map((t) => [t.id, t.status]));
        assert.equal(status.get(MANY), 'failed', 'listed as passed by pytest, failing by its subtests');
        assert.equal(status.get(`${F} > TestCalc > test_subs_pass`), 'passed');
      }
    });
  }

  for (const name of ['fixture-subtests-q.txt', 'fixture-subtests-v.txt', 'fixture-subtests-plugin-q.txt', 'fixture-subtests-plugin-v.txt']) {
    it(`${name}: the subtests fixture's failures are their test's, with each subtest's message`, () => {
      const r = parse(name);
      assert.deepEqual(ids(r), [FIXTURE]);
      assert.equal(failureOf(r, FIXTURE).file, 'subtests/test_fixture_subtests.py');
      const message = messageOf(r, FIXTURE);
      assert.match(message, /^\[same value\] \(a=1\): assert 2 == 0/);
      assert.match(message, /\n\n\[same value\] \(a=2\): assert 4 == 0/);
      assert.doesNotMatch(message, /contains 2 failed subtests/, "pytest 9's own line for the test says less than its subtests");
      assert.deepEqual([r.passedCount, r.failedCount, r.skippedCount], [2, 1, 0]);
      assert.equal(r.sharedIds, undefined);
    });
  }

  it('-v and -rA without subtests: a failing test named twice (its line and the summary) is one report', () => {
    for (const name of ['v-rN-mixed.txt', 'rA-mixed.txt']) assert.equal(parse(name).sharedIds, undefined, name);
  });
});
