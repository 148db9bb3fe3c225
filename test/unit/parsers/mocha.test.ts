// mocha's spec reporter, read back from real output captured by test/fixtures/regenerate/mocha.sh.
// Expected values come from the suites in test/fixtures/runners/mocha (src/calculator.js is buggy on purpose).
import { strict as assert } from 'assert';
import { mochaParser } from '../../../src/runners/mocha/parser';
import { detectFormat, parseOutput, PARSERS } from '../../../src/runners/parseOutput';
import { assertRanksFirst, ids, messageOf, readCapture, readCaptureRaw } from './support';

const read = (name: string) => readCapture('mocha', name);

// By design of test/mixed: two suites share the leaf "handles negatives", one title has quotes and
// parentheses, one test throws a TypeError, one fails with a three-line message, a before-all hook fails.
const MIXED = [
  'Calculator > add > handles negatives',
  'Calculator > divide > handles negatives',
  'Calculator > format("x") (quoted) > keeps "double" and \'single\' quotes (and parens)',
  'Storage > "before all" hook for "saves a user"',
  'Users > explains a wrong total',
  'Users > prints an invoice',
  'Users > reads a user name',
].sort();

describe('mocha spec parser', () => {
  it('spec-mixed.txt: joins the indented title lines into IDs and keeps the counts mocha prints', () => {
    const r = mochaParser.parse(read('spec-mixed.txt'));
    assert.equal(r.runner, 'mocha');
    assert.deepEqual(ids(r), MIXED);
    assert.equal(r.passedCount, 4);
    assert.equal(r.failedCount, 7);
    assert.equal(r.skippedCount, 2);
    assert.equal(r.loadError, false);
    assert.deepEqual(r.diagnostics, []);
  });

  it('spec-mixed.txt: keeps messages whole, multi-line ones included', () => {
    const r = mochaParser.parse(read('spec-mixed.txt'));
    assert.match(
      messageOf(r, 'Users > explains a wrong total'),
      /^AssertionError \[ERR_ASSERTION\]: total is wrong\nexpected 8 but the invoice says 7\n\(check the rounding\)\n/,
    );
    assert.match(messageOf(r, 'Users > reads a user name'), /^TypeError: Cannot read properties of null \(reading 'name'\)/);
    assert.match(messageOf(r, 'Users > reads a user name'), /test\/mixed\/users\.test\.js:8:29/);
    assert.match(messageOf(r, 'Calculator > divide > handles negatives'), /-3 !== -4/);
    assert.match(messageOf(r, 'Storage > "before all" hook for "saves a user"'), /^Error: database not reachable/);
    // One failure's message never runs into the next one's.
    assert.doesNotMatch(messageOf(r, 'Calculator > add > handles negatives'), /-3 !== -4|divide/);
  });

  it('spec-mixed-color.txt parses exactly like its plain twin once ANSI is stripped', () => {
    assert.deepEqual(mochaParser.parse(read('spec-mixed-color.txt')), mochaParser.parse(read('spec-mixed.txt')));
  });

  it('spec-allpass.txt: no failure, no load error', () => {
    const r = mochaParser.parse(read('spec-allpass.txt'));
    assert.deepEqual(r.failing, []);
    assert.equal(r.passedCount, 2);
    assert.equal(r.failedCount, 0);
    assert.equal(r.skippedCount, 0);
    assert.equal(r.loadError, false);
  });

  it('spec-loaderror.txt: a spec file with a syntax error is a load error, with no summary to count from', () => {
    const r = mochaParser.parse(read('spec-loaderror.txt'));
    assert.equal(r.loadError, true);
    assert.deepEqual(r.failing, []);
    assert.equal(r.passedCount, null);
    assert.equal(r.failedCount, null);
    assert.equal(r.skippedCount, null);
  });

  it('adds up the epilogues when a script runs mocha twice', () => {
    const twice = `${read('spec-mixed.txt')}\n${read('spec-allpass.txt')}`;
    const r = mochaParser.parse(twice);
    assert.deepEqual(ids(r), MIXED);
    assert.equal(r.passedCount, 6);
    assert.equal(r.failedCount, 7);
  });

  for (const name of ['spec-mixed.txt', 'spec-mixed-color.txt', 'spec-allpass.txt', 'spec-loaderror.txt']) {
    it(`${name}: auto detection ranks mocha first`, () => {
      const text = read(name);
      assertRanksFirst(mochaParser, text);
    });
  }

  // mocha's tap and xunit reporters print nothing of their own when a spec file cannot load: what remains is
  // mocha's crash, and it must still be read as a load error by whatever `auto` picks.
  for (const name of ['tap-loaderror.txt', 'xunit-loaderror.txt']) {
    it(`${name}: auto picks mocha, which reports the load error`, () => {
      const text = read(name);
      const best = [...PARSERS].sort((a, b) => b.detect(text) - a.detect(text))[0];
      assert.equal(best.format, 'mocha');
      assert.equal(best.parse(text).loadError, true);
    });
  }

  // Issue 30: js-yaml 4.1.1's suite "Scalar style dump:" ended every title path under it, so its failing tests were one.
  describe('titles that end in ":" (test/titles, mocha 11 and mocha 8)', () => {
    const FAILING = [
      'Units > Scalar style dump: > Plain style > is preferred',
      'Units > Scalar style dump: > Single quote style > doubles a quote',
      'Units > Scalar style dump: > ends in a colon:',
      'Units > Timing > answers within 50ms',
      'Units > Timing > answers within 80ms',
      'Units > Twins > has a twin',
    ];
    const PASSED = [
      'Units > Scalar style dump: > Plain style > keeps inner colons: key: value',
      'Units > Scalar style dump: > Single quote style > quotes a leading space',
    ];
    for (const [runner, name] of [['mocha', 'spec-titles.txt'], ['mocha8', 'spec-titles.txt'], ['mocha', 'list-titles.txt'], ['mocha8', 'list-titles.txt']]) {
      it(`${runner}/${name}: every failure keeps its whole title path, whatever its titles end with`, () => {
        const r = parseOutput(readCaptureRaw(runner, name));
        assert.equal(r.runner, 'mocha');
        assert.deepEqual(ids(r), FAILING);
        assert.equal(r.failedCount, 7);
        assert.equal(r.passedCount, 2);
        // The twins are two reports under one ID: said, not merged in silence.
        assert.deepEqual(r.sharedIds, [{ id: 'Units > Twins > has a twin', times: 2 }]);
        // The title's own ":" is not mocha's: the message starts after the path.
        assert.match(messageOf(r, 'Units > Scalar style dump: > ends in a colon:'), /^AssertionError \[ERR_ASSERTION\]: Expected values to be strictly equal:/);
        assert.match(messageOf(r, 'Units > Scalar style dump: > Plain style > is preferred'), /^AssertionError[\s\S]*'plain'[\s\S]*scalar\.test\.js:\d+:/);
        if (name.startsWith('spec')) {
          // The spec tree above the epilogue names the passing tests under the same title paths.
          assert.deepEqual(r.tests?.filter((t) => t.status === 'passed').map((t) => t.id).sort(), PASSED);
        }
      });
    }

    it('the spec tree, the numbered failure list, and the title paths of the json and tap reporters agree', () => {
      const spec = parseOutput(readCaptureRaw('mocha', 'spec-titles.txt'));
      const asSpaces = (id: string) => id.split(' > ').join(' ');
      for (const other of ['json-titles.txt', 'tap-titles.txt']) {
        const r = parseOutput(readCaptureRaw('mocha', other));
        assert.deepEqual(ids(r), FAILING.map(asSpaces).sort(), other);
        assert.deepEqual(r.tests?.filter((t) => t.status === 'passed').map((t) => t.id).sort(), PASSED.map(asSpaces), other);
        assert.deepEqual(r.sharedIds, [{ id: 'Units Twins has a twin', times: 2 }], other);
      }
      assert.deepEqual(spec.tests?.map((t) => asSpaces(t.id)).sort(), [...FAILING, ...PASSED].map(asSpaces).sort());
    });
  });

  it('mocha8/spec-mixed.txt reads exactly as mocha 11\'s spec-mixed.txt: the same IDs and counts', () => {
    const eight = mochaParser.parse(read8('spec-mixed.txt'));
    const eleven = mochaParser.parse(read('spec-mixed.txt'));
    assert.deepEqual(ids(eight), MIXED);
    assert.deepEqual([eight.passedCount, eight.failedCount, eight.skippedCount], [eleven.passedCount, eleven.failedCount, eleven.skippedCount]);
    assert.deepEqual(eight.tests?.map((t) => t.id).sort(), eleven.tests?.map((t) => t.id).sort());
  });

  // Issue 30: mocha 8 and 9 print Node's bare stack trace for a file that does not load; mocha 10+ says "Exception during run:".
  for (const [runner, name] of [['mocha8', 'spec-loaderror.txt'], ['mocha8', 'spec-sourceerror.txt'], ['mocha', 'spec-sourceerror.txt'], ['mocha', 'spec-loaderror.txt']]) {
    it(`${runner}/${name}: with the command running mocha, a file that does not load is mocha's load error`, () => {
      const text = readCapture(runner, name);
      assert.equal(detectFormat(text, ['mocha']), 'mocha');
      const r = parseOutput(text, 'auto', ['mocha']);
      assert.equal(r.loadError, true);
      assert.deepEqual(r.failing, []);
      assert.equal(r.passedCount, null);
      assert.match(text, /SyntaxError: missing \) after argument list/);
    });
  }

  it('mocha8: Node\'s bare stack trace alone is no runner\'s output, and a hint never outranks what the output shows', () => {
    assert.equal(detectFormat(read8('spec-sourceerror.txt')), null, 'without a hint it stays unrecognised, never taken for a suite');
    for (const other of ['tap-mixed.txt', 'tap-loaderror.txt']) assert.equal(detectFormat(read(other), ['mocha']), detectFormat(read(other)), other);
    assert.equal(detectFormat(readCapture('node', 'tap-mixed.txt'), ['mocha']), 'tap');
  });
});

function read8(name: string): string {
  return readCapture('mocha8', name);
}
