// The generic TAP parser on real streams: mocha's flat TAP 13 (IDs as written, joined with spaces) and
// node --test's indented subtests (IDs joined " > "), captured by test/fixtures/regenerate/{mocha,node}.sh.
// Expected values come from the suites in test/fixtures/runners/{mocha,node}.
import { strict as assert } from 'assert';
import { tapParser } from '../../../src/runners/readers/tap';
import { nodeParser } from '../../../src/runners/node/parser';
import { assertRanksFirst, failureOf, ids, readCapture } from './support';

describe('TAP parser: mocha --reporter tap (TAP 13, flat)', () => {
  it('tap-mixed.txt: IDs are the titles as written, counts from "# pass"/"# fail" and SKIP directives', () => {
    const r = tapParser.parse(readCapture('mocha', 'tap-mixed.txt'));
    assert.equal(r.runner, 'tap');
    assert.deepEqual(ids(r), [
      'Calculator add handles negatives',
      'Calculator divide handles negatives',
      'Calculator format("x") (quoted) keeps "double" and \'single\' quotes (and parens)',
      'Storage "before all" hook for "saves a user"',
      'Users explains a wrong total',
      'Users prints an invoice',
      'Users reads a user name',
    ]);
    assert.equal(r.passedCount, 4);
    assert.equal(r.failedCount, 7);
    // mocha prints no "# skip" line: the two "# SKIP" points are counted.
    assert.equal(r.skippedCount, 2);
    assert.equal(r.loadError, false);
  });

  it('tap-mixed.txt: messages come whole from the YAML block', () => {
    const r = tapParser.parse(readCapture('mocha', 'tap-mixed.txt'));
    assert.match(
      failureOf(r, 'Users explains a wrong total').message,
      /^AssertionError \[ERR_ASSERTION\]: total is wrong\nexpected 8 but the invoice says 7\n\(check the rounding\)\n/,
    );
    assert.match(failureOf(r, 'Users reads a user name').message, /^TypeError: Cannot read properties of null/);
    assert.match(failureOf(r, 'Calculator divide handles negatives').message, /-3 !== -4/);
  });

  it('tap-allpass.txt: no failure, no load error', () => {
    const r = tapParser.parse(readCapture('mocha', 'tap-allpass.txt'));
    assert.deepEqual(r.failing, []);
    assert.equal(r.passedCount, 2);
    assert.equal(r.failedCount, 0);
    assert.equal(r.skippedCount, 0);
    assert.equal(r.loadError, false);
  });

  it('tap-loaderror.txt: mocha dies before any test point, a load error', () => {
    const r = tapParser.parse(readCapture('mocha', 'tap-loaderror.txt'));
    assert.equal(r.loadError, true);
    assert.deepEqual(r.failing, []);
    assert.equal(r.passedCount, null);
  });
});

describe('TAP parser: node --test --test-reporter=tap (indented subtests)', () => {
  const NODE_MIXED = [
    'Calculator > add > handles negatives',
    'Calculator > divide > handles negatives',
    'Calculator > format("x") (quoted) > keeps "double" and \'single\' quotes (and parens)',
    'Storage > saves a user',
    'Users > explains a wrong total',
    'Users > prints an invoice',
    'Users > reads a user name',
    'parent test > child fails',
  ].sort();

  it('tap-mixed.txt: leaves only, by subtest path; the same failing set as the spec reporter', () => {
    const r = tapParser.parse(readCapture('node', 'tap-mixed.txt'));
    assert.deepEqual(ids(r), NODE_MIXED);
    assert.deepEqual(ids(r), ids(nodeParser.parse(readCapture('node', 'spec-mixed.txt'))));
    assert.equal(r.passedCount, 5);
    assert.equal(r.failedCount, 9);
    assert.equal(r.skippedCount, 3);
    assert.equal(r.loadError, false);
  });

  it('tap-mixed.txt: messages and files come from the YAML block', () => {
    const r = tapParser.parse(readCapture('node', 'tap-mixed.txt'));
    const total = failureOf(r, 'Users > explains a wrong total');
    assert.match(total.message, /^AssertionError: total is wrong\nexpected 8 but the invoice says 7\n\(check the rounding\)\n/);
    assert.match(total.file ?? '', /test\/mixed\/users\.test\.js$/);
    assert.match(failureOf(r, 'Users > reads a user name').message, /^TypeError: Cannot read properties of null/);
    assert.match(failureOf(r, 'Calculator > divide > handles negatives').message, /-3 !== -4/);
    assert.match(failureOf(r, 'Storage > saves a user').message, /cancelled/);
  });

  it('tap-allpass.txt: no failure, no load error', () => {
    const r = tapParser.parse(readCapture('node', 'tap-allpass.txt'));
    assert.deepEqual(r.failing, []);
    assert.equal(r.passedCount, 2);
    assert.equal(r.failedCount, 0);
    assert.equal(r.loadError, false);
  });

  it('tap-loaderror.txt: a file that dies loading is a load error, its SyntaxError in the message', () => {
    const r = tapParser.parse(readCapture('node', 'tap-loaderror.txt'));
    assert.equal(r.loadError, true);
    assert.equal(r.failing.length, 0, 'a file that did not load is not a failing test');
    assert.equal(r.loadErrors?.length, 1);
    assert.match(r.loadErrors![0].file, /test\/loaderror\/broken\.test\.js$/);
    assert.match(r.loadErrors![0].message, /SyntaxError: missing \) after argument list/);
    assert.equal(r.passedCount, 1);
    assert.equal(r.failedCount, 0);
  });

  it('a stream cut off before its plan is a load error', () => {
    const full = readCapture('node', 'tap-allpass.txt');
    const cut = full.slice(0, full.indexOf('ok 1 - Calculator'));
    assert.equal(tapParser.parse(full).loadError, false);
    assert.equal(tapParser.parse(cut).loadError, true);
  });
});

describe('TAP detection', () => {
  const files: Array<[string, string]> = [
    ['mocha', 'tap-mixed.txt'], ['mocha', 'tap-allpass.txt'],
    ['node', 'tap-mixed.txt'], ['node', 'tap-allpass.txt'], ['node', 'tap-loaderror.txt'],
  ];
  for (const [runner, name] of files) {
    it(`${runner}/${name}: auto detection ranks tap first`, () => {
      const text = readCapture(runner, name);
      assertRanksFirst(tapParser, text);
    });
  }
});
