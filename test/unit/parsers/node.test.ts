// node --test's spec reporter (Node 20), read back from real output captured by test/fixtures/regenerate/node.sh.
// Expected values come from the suites in test/fixtures/runners/node (src/calculator.js is buggy on purpose).
import { strict as assert } from 'assert';
import { nodeParser } from '../../../src/runners/node/parser';
import { assertRanksFirst, failureOf, ids, readCapture } from './support';

const read = (name: string) => readCapture('node', name);

// By design of test/mixed: suites "add" and "divide" share the leaf "handles negatives"; "parent test" is a
// test with subtests (only its failing child is listed); Storage's before hook fails, cancelling its test.
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

describe('node --test spec parser', () => {
  it('spec-mixed.txt: lists leaf failures by title path, never the suites or parents they fail', () => {
    const r = nodeParser.parse(read('spec-mixed.txt'));
    assert.equal(r.runner, 'node');
    assert.deepEqual(ids(r), NODE_MIXED);
    assert.equal(r.loadError, false);
    assert.deepEqual(r.diagnostics, []);
  });

  it('spec-mixed.txt: counts come from the ℹ summary (cancelled as failed, todo as skipped), not the recap', () => {
    const r = nodeParser.parse(read('spec-mixed.txt'));
    // pass 5; fail 8 (7 leaves + "parent test") + cancelled 1; skipped 2 + todo 1.
    assert.equal(r.passedCount, 5);
    assert.equal(r.failedCount, 9);
    assert.equal(r.skippedCount, 3);
    assert.equal(r.failing.length, 8, 'the "failing tests:" recap must not add a second copy');
  });

  it('spec-mixed.txt: messages are whole and files come from the recap', () => {
    const r = nodeParser.parse(read('spec-mixed.txt'));
    const total = failureOf(r, 'Users > explains a wrong total');
    assert.match(total.message, /^AssertionError \[ERR_ASSERTION\]: total is wrong\nexpected 8 but the invoice says 7\n\(check the rounding\)\n/);
    assert.equal(total.file, 'test/mixed/users.test.js');
    const typeError = failureOf(r, 'Users > reads a user name');
    assert.match(typeError.message, /^TypeError \[Error\]: Cannot read properties of null \(reading 'name'\)/);
    assert.equal(failureOf(r, 'Calculator > divide > handles negatives').file, 'test/mixed/calculator.test.js');
    assert.match(failureOf(r, 'Calculator > divide > handles negatives').message, /-3 !== -4/);
    assert.doesNotMatch(failureOf(r, 'Calculator > add > handles negatives').message, /-3 !== -4/);
    // The cancelled test carries the hook error that cancelled it.
    const cancelled = failureOf(r, 'Storage > saves a user');
    assert.match(cancelled.message, /cancelled/);
    assert.match(cancelled.message, /Error: database not reachable/);
  });

  it('spec-mixed-color.txt parses exactly like its plain twin once ANSI is stripped', () => {
    assert.deepEqual(nodeParser.parse(read('spec-mixed-color.txt')), nodeParser.parse(read('spec-mixed.txt')));
  });

  it('spec-allpass.txt: no failure, no load error', () => {
    const r = nodeParser.parse(read('spec-allpass.txt'));
    assert.deepEqual(r.failing, []);
    assert.equal(r.passedCount, 2);
    assert.equal(r.failedCount, 0);
    assert.equal(r.skippedCount, 0);
    assert.equal(r.loadError, false);
  });

  it('spec-loaderror.txt: a file that dies loading is a load error, its SyntaxError in the message', () => {
    const r = nodeParser.parse(read('spec-loaderror.txt'));
    assert.equal(r.loadError, true);
    assert.equal(r.failing.length, 0, 'a file that did not load is not a failing test');
    assert.equal(r.loadErrors?.length, 1);
    assert.match(r.loadErrors![0].file, /test\/loaderror\/broken\.test\.js$/);
    assert.match(r.loadErrors![0].message, /SyntaxError: missing \) after argument list/);
    assert.equal(r.passedCount, 1);
    assert.equal(r.failedCount, 0);
  });

  it('output cut off before any test is a load error with unknown counts', () => {
    const r = nodeParser.parse(read('spec-loaderror.txt').split('\n✖ ')[0]);
    assert.equal(r.loadError, true);
    assert.equal(r.passedCount, null);
  });

  for (const name of ['spec-mixed.txt', 'spec-mixed-color.txt', 'spec-allpass.txt', 'spec-loaderror.txt']) {
    it(`${name}: auto detection ranks node first`, () => {
      const text = read(name);
      assertRanksFirst(nodeParser, text);
    });
  }
});

describe('node --test spec parser on a script that runs node --test twice', () => {
  it('reads both runs: the second run after the first one\'s recap is not mistaken for the recap', () => {
    const twice = `${read('spec-mixed.txt')}\n${read('spec-loaderror.txt')}`;
    const r = nodeParser.parse(twice);
    assert.equal(r.failing.length, 8);
    assert.deepEqual(ids(r), NODE_MIXED);
    assert.equal(r.loadErrors?.length, 1);
    assert.equal(r.loadError, true);
    assert.equal(r.passedCount, 6);
    assert.equal(failureOf(r, 'Users > prints an invoice').file, 'test/mixed/users.test.js');
  });
});
