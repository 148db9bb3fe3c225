// mocha's spec reporter, read back from real output captured by test/fixtures/regenerate/mocha.sh.
// Expected values come from the suites in test/fixtures/runners/mocha (src/calculator.js is buggy on purpose).
import { strict as assert } from 'assert';
import { mochaParser } from '../../../src/verify/parsers/mocha';
import { PARSERS } from '../../../src/verify/parseOutput';
import { assertRanksFirst, ids, messageOf, readCapture } from './support';

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
});
