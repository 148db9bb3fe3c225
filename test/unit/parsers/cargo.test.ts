// Expected values come from the workspace in test/fixtures/runners/cargo (which tests fail is decided there),
// read back from real `cargo test` output captured by test/fixtures/regenerate/cargo.sh.
import { strict as assert } from 'assert';
import { join } from 'path';
import { cargoParser } from '../../../src/runners/cargo/parser';
import { detectFormat } from '../../../src/runners/parseOutput';
import type { ParseResult } from '../../../src/runners/types';
import { ids, messageOf, readCapture } from './support';

const read = (name: string): string => readCapture('cargo', name);
const parse = (name: string): ParseResult => cargoParser.parse(read(name));

const MIXED_FAILING = [
  'tests > add > handles_negatives',
  'tests > sub > zero',
  'tests > parses_garbage',
  'tests > multi_line_message',
  'subs_from_outside',
  'mixed/src/lib.rs - sub (line 14)',
].sort();

describe('cargo test parser', () => {
  for (const name of ['mixed.txt', 'mixed-color.txt']) {
    it(`${name}: module paths of failing tests from unit, integration and doc tests`, () => {
      const r = parse(name);
      assert.deepEqual(ids(r), MIXED_FAILING);
      assert.ok(!ids(r).includes('tests > add > zero'), 'same leaf name in another module passed');
      // Summed over the three binaries: 2+1+1 passed, 4+1+1 failed, 1 ignored.
      assert.equal(r.passedCount, 4);
      assert.equal(r.failedCount, 6);
      assert.equal(r.skippedCount, 1);
      assert.equal(r.loadError, false);
      assert.equal(
        messageOf(r, 'tests > add > handles_negatives'),
        'assertion `left == right` failed: adding "negatives" (both below zero)\n  left: -5\n right: -6',
      );
      assert.equal(messageOf(r, 'tests > multi_line_message'), 'sub is wrong\nsecond line of the message');
      assert.equal(
        messageOf(r, 'tests > parses_garbage'),
        'called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }',
      );
      const byId = new Map(r.failing.map((f) => [f.id, f.file]));
      assert.equal(byId.get('tests > sub > zero'), 'mixed/src/lib.rs');
      assert.equal(byId.get('subs_from_outside'), 'mixed/tests/integration.rs');
      assert.match(messageOf(r, 'mixed/src/lib.rs - sub (line 14)'), /left: 8\n right: 2$/);
    });
  }

  it('the colour capture parses exactly like its plain twin', () => {
    assert.deepEqual(parse('mixed-color.txt'), parse('mixed.txt'));
  });

  it('all passing, doc tests included', () => {
    const r = parse('allpass.txt');
    assert.deepEqual(r.failing, []);
    assert.equal(r.passedCount, 2);
    assert.equal(r.failedCount, 0);
    assert.equal(r.skippedCount, 0);
    assert.equal(r.loadError, false);
  });

  it('a compile error is a load error with no counts', () => {
    const r = parse('loaderror.txt');
    assert.equal(r.loadError, true);
    assert.deepEqual(r.failing, []);
    assert.equal(r.passedCount, null);
    assert.equal(r.failedCount, null);
  });

  it('auto detection picks cargo for every capture', () => {
    for (const name of ['mixed.txt', 'mixed-color.txt', 'allpass.txt', 'loaderror.txt']) {
      assert.equal(detectFormat(read(name)), 'cargo', name);
    }
  });

  it('scores other runners\' output low', () => {
    for (const other of ['pytest/q-mixed.txt', 'go/v-mixed.txt', 'tsc/plain-errors.txt']) {
      assert.ok(cargoParser.detect(read(join('..', other))) < 0.2, other);
    }
  });
});
