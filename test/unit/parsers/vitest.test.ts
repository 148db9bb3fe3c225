// Expected values come from the suites in test/fixtures/runners/vitest (which tests fail is decided there),
// read back from real vitest output captured by test/fixtures/regenerate/vitest.sh.
import { strict as assert } from 'assert';
import { vitestParser } from '../../../src/runners/vitest/parser';
import { junitParser } from '../../../src/runners/readers/junit';
import type { ParseResult } from '../../../src/runners/types';
import { ids, messageOf, otherParsers, readCapture, readCaptureRaw } from './support';

const MIXED_FAILING: Array<[string, string]> = [
  ['Calculator > add > handles negatives', 'mixed/calc.test.ts'],
  ['Calculator > multiply > handles "big" numbers (over 1e6)', 'mixed/calc.test.ts'],
  ['Formatter > handles negatives', 'mixed/calc.test.ts'],
  ['Parser > records > parses a record into an object', 'mixed/parser.test.ts'],
  ['Parser > records > reads the header of a missing record', 'mixed/parser.test.ts'],
  ["top-level: version is '1.0' (semver)", 'mixed/parser.test.ts'],
];
const MIXED_IDS = MIXED_FAILING.map(([id]) => id).sort();

function assertMixed(r: ParseResult): void {
  assert.equal(r.runner, 'vitest');
  assert.deepEqual(ids(r), MIXED_IDS);
  assert.equal(r.failing.length, MIXED_IDS.length, 'a failure was counted twice');
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

describe('vitest default reporter parser', () => {
  it('reads nested, duplicate-named and quoted failures from a multi-file run', () => {
    assertMixed(vitestParser.parse(readCapture('vitest', 'default-mixed.txt')));
  });

  it('keeps a multi-line diff and a thrown TypeError intact in the messages', () => {
    const r = vitestParser.parse(readCapture('vitest', 'default-mixed.txt'));
    const diff = messageOf(r, 'Parser > records > parses a record into an object');
    assert.match(diff, /^AssertionError: expected \{ a: 1, b: 2 \} to deeply equal \{ a: 1, b: 2, c: 3 \}/);
    assert.ok(
      diff.includes('- Expected\n+ Received\n\n  {\n    "a": 1,\n    "b": 2,\n-   "c": 3,\n  }'),
      diff,
    );
    const typeError = messageOf(r, 'Parser > records > reads the header of a missing record');
    assert.match(typeError, /^TypeError: Cannot read properties of undefined \(reading 'header'\)/);
    assert.match(typeError, /❯ mixed\/parser\.test\.ts:11:21/);
    // The message ends before vitest's "[n/6]" separator.
    assert.ok(!typeError.includes('⎯'), typeError);
    assert.match(messageOf(r, 'Formatter > handles negatives'), /Expected: "\(1\)"\nReceived: "-1"/);
  });

  it('gives the coloured run the same result as its plain twin', () => {
    const plain = vitestParser.parse(readCapture('vitest', 'default-mixed.txt'));
    const colour = vitestParser.parse(readCapture('vitest', 'default-mixed-color.txt'));
    assertMixed(colour);
    const byId = (r: ParseResult) => [...r.failing].sort((a, b) => a.id.localeCompare(b.id));
    assert.deepEqual(byId(colour), byId(plain));
  });

  it('reports an all-passing run with its skipped test and no failure', () => {
    const r = vitestParser.parse(readCapture('vitest', 'default-allpass.txt'));
    assert.deepEqual(r.failing, []);
    assert.equal(r.passedCount, 4);
    assert.equal(r.failedCount, 0);
    assert.equal(r.skippedCount, 1);
    assert.equal(r.loadError, false);
  });

  it('flags files that failed to load (syntax error, missing import, no test) with no failing test', () => {
    const r = vitestParser.parse(readCapture('vitest', 'default-loaderror.txt'));
    assert.equal(r.loadError, true);
    assert.deepEqual(r.failing, []);
    assert.equal(r.passedCount, 1);
    assert.equal(r.failedCount, 0);
    assert.equal(r.skippedCount, 0);
  });

  it('gives each of several FAIL headers printed over one shared error that error', () => {
    const r = vitestParser.parse(readCapture('vitest', 'default-grouped.txt'));
    assert.deepEqual(ids(r), ['Config > reads the host', 'Config > reads the port']);
    for (const f of r.failing) {
      assert.equal(f.file, 'grouped/shared.test.ts');
      assert.match(f.message, /^Error: the config file is missing\n/);
    }
    assert.equal(r.passedCount, 1);
    assert.equal(r.failedCount, 2);
    assert.equal(r.loadError, false);
  });

  it('treats "No test files found" as a suite that did not load', () => {
    const r = vitestParser.parse('No test files found, exiting with code 1\n');
    assert.equal(r.loadError, true);
  });

  it('scores its own captures above every other parser', () => {
    const others = otherParsers('vitest');
    assert.ok(others.some((p) => p.format === 'jest'), 'the jest parser is missing from the comparison');
    for (const name of ['default-mixed.txt', 'default-mixed-color.txt', 'default-allpass.txt', 'default-loaderror.txt', 'default-grouped.txt']) {
      const text = readCapture('vitest', name);
      const own = vitestParser.detect(text);
      assert.ok(own >= 0.8, `${name}: vitest scored ${own}`);
      for (const p of others) assert.ok(p.detect(text) < own, `${name}: ${p.format} scored as high as vitest`);
    }
    for (const name of ['default-mixed.txt', 'default-loaderror.txt', 'default-many.txt']) {
      assert.ok(vitestParser.detect(readCapture('jest', name)) < 0.5, `jest ${name} looks like vitest`);
    }
  });
});

// vitest's junit reporter: classname is the file, name is the title path already joined with " > ".
describe('vitest junit XML through junitParser', () => {
  it('reads the failing set, counts and messages of the mixed run', () => {
    const r = junitParser.parse(readCaptureRaw('vitest', 'junit-mixed.xml'));
    assert.deepEqual(ids(r), MIXED_IDS);
    assert.equal(r.failedCount, 6);
    assert.equal(r.passedCount, 5);
    assert.equal(r.loadError, false);
    assert.match(messageOf(r, 'Parser > records > reads the header of a missing record'), /TypeError: Cannot read properties of undefined/);
  });

  it('reads an all-passing run', () => {
    const r = junitParser.parse(readCaptureRaw('vitest', 'junit-allpass.xml'));
    assert.deepEqual(r.failing, []);
    assert.equal(r.passedCount, 4);
    assert.equal(r.loadError, false);
  });

  it('sees the files that failed to load', () => {
    const r = junitParser.parse(readCaptureRaw('vitest', 'junit-loaderror.xml'));
    assert.equal(r.loadError, true);
  });
});
