// The JUnit XML parser on mocha's xunit reporter, captured by test/fixtures/regenerate/mocha.sh. (jest-junit and
// vitest junit captures are checked in jest.test.ts and vitest.test.ts.) Expected values come from the suites in
// test/fixtures/runners/mocha.
import { strict as assert } from 'assert';
import { junitParser, parseJunitFiles } from '../../../src/runners/readers/junit';
import { assertRanksFirst, failureOf, ids, readCaptureRaw } from './support';

const read = (name: string) => readCaptureRaw('mocha', name);

// mocha xunit: classname = suite titles joined with spaces, name = test title; the ID is both, as written,
// the same IDs as mocha's TAP reporter gives.
const MIXED = [
  'Calculator add handles negatives',
  'Calculator divide handles negatives',
  'Calculator format("x") (quoted) keeps "double" and \'single\' quotes (and parens)',
  'Storage "before all" hook for "saves a user"',
  'Users explains a wrong total',
  'Users prints an invoice',
  'Users reads a user name',
];

describe('JUnit XML parser (mocha xunit)', () => {
  it('xunit-mixed.xml: IDs, counts from the testcases, entities decoded', () => {
    const r = junitParser.parse(read('xunit-mixed.xml'));
    assert.equal(r.runner, 'junit');
    assert.deepEqual(ids(r), MIXED);
    assert.equal(r.passedCount, 4);
    assert.equal(r.failedCount, 7);
    // The suite's own skipped="1" attribute undercounts; two testcases carry <skipped/>.
    assert.equal(r.skippedCount, 2);
    assert.equal(r.loadError, false);
  });

  it('xunit-mixed.xml: multi-line messages are intact and the file is the one mocha reports', () => {
    const r = junitParser.parse(read('xunit-mixed.xml'));
    const total = failureOf(r, 'Users explains a wrong total');
    assert.match(total.message, /^total is wrong\nexpected 8 but the invoice says 7\n\(check the rounding\)\n/);
    assert.match(total.file ?? '', /test\/mixed\/users\.test\.js$/);
    assert.match(failureOf(r, 'Users reads a user name').message, /TypeError: Cannot read properties of null \(reading 'name'\)/);
    assert.match(failureOf(r, 'Users reads a user name').message, /Context\.<anonymous>/);
  });

  it('xunit-allpass.xml: no failure, no load error', () => {
    const r = junitParser.parse(read('xunit-allpass.xml'));
    assert.deepEqual(r.failing, []);
    assert.equal(r.passedCount, 2);
    assert.equal(r.failedCount, 0);
    assert.equal(r.skippedCount, 0);
    assert.equal(r.loadError, false);
  });

  it('xunit-loaderror.txt: no report at all is a load error with unknown counts', () => {
    const r = junitParser.parse(read('xunit-loaderror.txt'));
    assert.equal(r.loadError, true);
    assert.deepEqual(r.failing, []);
    assert.equal(r.passedCount, null);
  });

  it('a report cut off half way is a load error, not an exception', () => {
    const xml = read('xunit-mixed.xml');
    const r = junitParser.parse(xml.slice(0, Math.floor(xml.length / 2)));
    assert.equal(r.loadError, true);
  });

  it('finds the report after console output printed before it on stdout', () => {
    const noisy = `${read('spec-allpass.txt')}\n${read('xunit-mixed.xml')}`;
    assert.deepEqual(ids(junitParser.parse(noisy)), MIXED);
  });

  it('parseJunitFiles merges several reports; one unreadable report makes the whole a load error', () => {
    const merged = parseJunitFiles([read('xunit-mixed.xml'), read('xunit-allpass.xml')]);
    assert.deepEqual(ids(merged), MIXED);
    assert.equal(merged.passedCount, 6);
    assert.equal(merged.failedCount, 7);
    assert.equal(merged.skippedCount, 2);
    assert.equal(merged.loadError, false);
    const withBroken = parseJunitFiles([read('xunit-allpass.xml'), read('xunit-loaderror.txt')]);
    assert.equal(withBroken.loadError, true);
    assert.equal(withBroken.passedCount, 2);
    assert.equal(parseJunitFiles([]).loadError, true, 'a --junit glob matching nothing is never green');
  });

  for (const name of ['xunit-mixed.xml', 'xunit-allpass.xml']) {
    it(`${name}: auto detection ranks junit first`, () => {
      const text = read(name);
      assertRanksFirst(junitParser, text);
    });
  }
});
