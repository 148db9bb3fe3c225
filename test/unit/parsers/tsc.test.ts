// Expected values come from the project in test/fixtures/runners/tsc (its errors are placed there on purpose),
// read back from real tsc output captured by test/fixtures/regenerate/tsc.sh.
import { strict as assert } from 'assert';
import { join } from 'path';
import { tscParser } from '../../../src/runners/readers/tsc';
import { detectFormat } from '../../../src/runners/parseOutput';
import type { ParseResult } from '../../../src/runners/types';
import { readCapture } from './support';

const read = (name: string): string => readCapture('tsc', name);
const parse = (name: string): ParseResult => tscParser.parse(read(name));

const CHAIN =
  "Type '{ x: number; y: string; }' is not assignable to type 'Point'.\n" +
  "  Types of property 'y' are incompatible.\n" +
  "    Type 'string' is not assignable to type 'number'.";

const EXPECTED = [
  { file: 'src/main.ts', line: 4, column: 23, code: 'TS2304', message: "Cannot find name 'missingValue'." },
  { file: 'src/main.ts', line: 8, column: 31, code: 'TS2339', message: 'Property \'size\' does not exist on type \'"abc"\'.' },
  { file: 'src/shapes.ts', line: 15, column: 3, code: 'TS2322', message: CHAIN },
  {
    file: 'src/shapes.ts', line: 23, column: 25, code: 'TS2345',
    message: "Argument of type 'string' is not assignable to parameter of type 'number'.",
  },
];

describe('tsc parser', () => {
  for (const name of ['plain-errors.txt', 'pretty-errors.txt']) {
    it(`${name}: every error with its position, code and whole multi-line message`, () => {
      const r = parse(name);
      assert.deepEqual(r.diagnostics, EXPECTED);
      assert.deepEqual(r.failing, []);
      assert.equal(r.passedCount, null);
      assert.equal(r.failedCount, null);
      assert.equal(r.skippedCount, null);
      assert.equal(r.loadError, false);
    });
  }

  it('pretty (coloured, code frames, related info, footer) parses exactly like --pretty false', () => {
    assert.deepEqual(parse('pretty-errors.txt'), parse('plain-errors.txt'));
  });

  for (const name of ['plain-clean.txt', 'pretty-clean.txt']) {
    it(`${name}: a clean project has no diagnostics and loaded`, () => {
      const r = parse(name);
      assert.deepEqual(r.diagnostics, []);
      assert.equal(r.loadError, false);
    });
  }

  for (const name of ['plain-loaderror.txt', 'pretty-loaderror.txt']) {
    it(`${name}: a missing project (TS5058) means tsc could not run`, () => {
      const r = parse(name);
      assert.equal(r.loadError, true);
      assert.deepEqual(r.diagnostics.map((d) => d.code), ['TS5058']);
      assert.match(r.diagnostics[0].message, /The specified path does not exist: 'missing-folder'/);
    });
  }

  it('an unreadable extended tsconfig (TS5083) and a syntax error in tsconfig are load errors', () => {
    const r = parse('plain-badconfig.txt');
    assert.equal(r.loadError, true);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['TS5083', 'TS2304', 'TS2339', 'TS2322', 'TS2345', 'TS1005']);
    assert.equal(r.diagnostics[5].file, 'tsconfig.broken.json');
  });

  it('auto detection picks tsc for every capture with output', () => {
    for (const name of ['plain-errors.txt', 'pretty-errors.txt', 'plain-loaderror.txt', 'pretty-loaderror.txt',
      'plain-badconfig.txt']) {
      assert.equal(detectFormat(read(name)), 'tsc', name);
    }
  });

  it('scores other runners\' output low', () => {
    for (const other of ['pytest/q-mixed.txt', 'go/v-mixed.txt', 'cargo/mixed.txt', 'cargo/loaderror.txt']) {
      assert.ok(tscParser.detect(read(join('..', other))) < 0.2, other);
    }
  });
});
