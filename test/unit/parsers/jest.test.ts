// Expected values come from the suites in test/fixtures/runners/jest (which tests fail is decided there),
// read back from real jest output captured by test/fixtures/regenerate/jest.sh.
import { strict as assert } from 'assert';
import { jestParser } from '../../../src/runners/jest/parser';
import { junitParser } from '../../../src/runners/readers/junit';
import type { ParseResult } from '../../../src/runners/types';
import { ids, messageOf, otherParsers, readCapture, readCaptureRaw } from './support';

const MIXED_FAILING: Array<[string, string]> = [
  ['Calculator > add > handles negatives', 'mixed/calc.test.js'],
  ['Calculator > multiply > handles "big" numbers (over 1e6)', 'mixed/calc.test.js'],
  ['Formatter > handles negatives', 'mixed/calc.test.js'],
  ['Parser > records > parses a record into an object', 'mixed/parser.test.js'],
  ['Parser > records > reads the header of a missing record', 'mixed/parser.test.js'],
  ["top-level: version is '1.0' (semver)", 'mixed/parser.test.js'],
];
const MIXED_IDS = MIXED_FAILING.map(([id]) => id).sort();

function assertMixed(r: ParseResult): void {
  assert.equal(r.runner, 'jest');
  assert.deepEqual(ids(r), MIXED_IDS);
  for (const [id, file] of MIXED_FAILING) {
    assert.equal(r.failing.find((f) => f.id === id)?.file, file, `file of ${id}`);
  }
  // 2 passing in calc, 1 in parser, 2 in util; one test.skip plus one test.todo.
  assert.equal(r.passedCount, 5);
  assert.equal(r.failedCount, 6);
  assert.equal(r.skippedCount, 2);
  assert.equal(r.loadError, false);
  assert.deepEqual(r.diagnostics, []);
}

describe('jest default reporter parser', () => {
  it('reads nested, duplicate-named and quoted failures from a multi-file run', () => {
    const r = jestParser.parse(readCapture('jest', 'default-mixed.txt'));
    assertMixed(r);
  });

  it('keeps a multi-line diff and a thrown TypeError intact in the messages', () => {
    const r = jestParser.parse(readCapture('jest', 'default-mixed.txt'));
    const diff = messageOf(r, 'Parser > records > parses a record into an object');
    assert.match(diff, /^expect\(received\)\.toEqual\(expected\) \/\/ deep equality/);
    assert.ok(
      diff.includes('- Expected  - 1\n+ Received  + 0\n\n  Object {\n    "a": 1,\n    "b": 2,\n-   "c": 3,\n  }'),
      diff,
    );
    const typeError = messageOf(r, 'Parser > records > reads the header of a missing record');
    assert.match(typeError, /^TypeError: Cannot read properties of undefined \(reading 'header'\)/);
    assert.match(typeError, /at Object\.header \(mixed\/parser\.test\.js:10:21\)/);
    assert.match(messageOf(r, 'Formatter > handles negatives'), /Expected: "\(1\)"\nReceived: "-1"/);
  });

  it('gives the coloured run the same result as its plain twin', () => {
    const plain = jestParser.parse(readCapture('jest', 'default-mixed.txt'));
    const colour = jestParser.parse(readCapture('jest', 'default-mixed-color.txt'));
    assertMixed(colour);
    const byId = (r: ParseResult) => [...r.failing].sort((a, b) => a.id.localeCompare(b.id));
    assert.deepEqual(byId(colour), byId(plain));
  });

  it('reads the same failures from a --verbose run that lists every test', () => {
    assertMixed(jestParser.parse(readCapture('jest', 'default-mixed-verbose.txt')));
  });

  it('reports an all-passing run with its skipped test and no failure', () => {
    const r = jestParser.parse(readCapture('jest', 'default-allpass.txt'));
    assert.deepEqual(r.failing, []);
    assert.equal(r.passedCount, 4);
    assert.equal(r.failedCount, 0);
    assert.equal(r.skippedCount, 1);
    assert.equal(r.loadError, false);
  });

  it('flags suites that failed to run even though no test failed', () => {
    const r = jestParser.parse(readCapture('jest', 'default-loaderror.txt'));
    assert.equal(r.loadError, true);
    assert.deepEqual(r.failing, []);
    assert.equal(r.passedCount, 1);
    assert.equal(r.failedCount, 0);
    assert.equal(r.skippedCount, 0);
  });

  it('does not double count the "Summary of all failing tests" jest repeats past 20 suites', () => {
    const text = readCapture('jest', 'default-many.txt');
    assert.ok(text.includes('Summary of all failing tests'), 'capture lacks the summary section');
    const r = jestParser.parse(text);
    assert.deepEqual(ids(r), ['Many > adds with a bug', 'Many > multiplies with a bug']);
    assert.ok(r.failing.every((f) => f.file === 'many/fail.test.js'));
    assert.equal(r.passedCount, 20);
    assert.equal(r.failedCount, 2);
    assert.equal(r.loadError, false);
  });

  it('treats "No tests found" as a suite that did not load', () => {
    const r = jestParser.parse('No tests found, exiting with code 1\nRun with `--passWithNoTests` to exit with code 0\n');
    assert.equal(r.loadError, true);
  });

  it('scores its own captures above every other parser', () => {
    const others = otherParsers('jest');
    assert.ok(others.some((p) => p.format === 'vitest'), 'the vitest parser is missing from the comparison');
    for (const name of ['default-mixed.txt', 'default-mixed-color.txt', 'default-allpass.txt', 'default-loaderror.txt', 'default-many.txt']) {
      const text = readCapture('jest', name);
      const own = jestParser.detect(text);
      assert.ok(own >= 0.8, `${name}: jest scored ${own}`);
      for (const p of others) assert.ok(p.detect(text) < own, `${name}: ${p.format} scored as high as jest`);
    }
    for (const name of ['default-mixed.txt', 'default-loaderror.txt']) {
      assert.ok(jestParser.detect(readCapture('vitest', name)) < 0.5, `vitest ${name} looks like jest`);
    }
  });
});

// jest-junit with default templates: classname and name are "<describe titles> <test title>" joined by spaces.
describe('jest-junit XML through junitParser', () => {
  it('reads the failing set and counts of the mixed run', () => {
    const r = junitParser.parse(readCaptureRaw('jest', 'junit-mixed.xml'));
    assert.deepEqual(ids(r), [
      'Calculator add handles negatives',
      'Calculator multiply handles "big" numbers (over 1e6)',
      'Formatter handles negatives',
      'Parser records parses a record into an object',
      'Parser records reads the header of a missing record',
      "top-level: version is '1.0' (semver)",
    ]);
    assert.equal(r.failedCount, 6);
    // jest-junit writes test.todo as an empty <testcase>, which reads as a pass (jest itself says 5 passed).
    assert.equal(r.passedCount, 6);
    assert.equal(r.skippedCount, 1);
    assert.equal(r.loadError, false);
    assert.match(messageOf(r, 'Parser records parses a record into an object'), /- {3}"c": 3,/);
  });

  it('sees suites that failed to run when jest-junit is told to report them', () => {
    // With its defaults jest-junit leaves such suites out of the XML entirely (junit-loaderror.xml).
    const r = junitParser.parse(readCaptureRaw('jest', 'junit-loaderror-suiteerrors.xml'));
    assert.equal(r.loadError, true);
    assert.equal(r.passedCount, 1);
  });

  it('reads an all-passing run', () => {
    const r = junitParser.parse(readCaptureRaw('jest', 'junit-allpass.xml'));
    assert.deepEqual(r.failing, []);
    assert.equal(r.passedCount, 4);
    assert.equal(r.loadError, false);
  });
});
