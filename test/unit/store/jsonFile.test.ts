// The saved run is written a megabyte at a time (store/jsonFile.ts): the file must read exactly as the text
// JSON.stringify gave of the redacted value, whatever the value holds.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { writeJsonFileSync } from '../../../src/store/jsonFile';
import { createRedactor } from '../../../src/base/redact';
import { tempDir } from '../support/cli';

const KEY = 'sk-test-0123456789abcdef';

describe('writeJsonFileSync', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('jsonfile');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes the text JSON.stringify gave of the redacted value (store/runStore.ts before): escapes, nesting, undefined, NaN, keys', () => {
    const redactor = createRedactor([KEY]);
    const value = {
      text: `quote " backslash \\ newline \n tab \t control \u0001 emoji 🎉 lone \ud800 key ${KEY}`,
      numbers: [0, -1.5, 1e21, NaN, Infinity],
      flags: [true, false, null],
      holes: [undefined, () => 1, 'kept'],
      skipped: undefined,
      fn: () => 2,
      nested: { [`key ${KEY}`]: [[], {}, [{ deep: [1, [2, [3]]] }]] },
      '2': 'an index-like key goes first, as in JSON.stringify',
    };
    const file = path.join(dir, 'a.json');
    writeJsonFileSync(file, value, redactor.text);
    const written = fs.readFileSync(file, 'utf8');
    assert.strictEqual(written, JSON.stringify(redactor.json(value)));
    assert.ok(!written.includes(KEY));
  });

  it('writes a date as JSON.stringify does', () => {
    const file = path.join(dir, 'date.json');
    const value = { when: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)) };
    writeJsonFileSync(file, value);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), JSON.stringify(value));
  });

  it('writes a list of 200,000 IDs across several pieces, byte for byte', () => {
    const ids = Array.from({ length: 200_000 }, (_, i) => `module ${i % 997} > parses record ${i}`);
    const file = path.join(dir, 'big.json');
    writeJsonFileSync(file, { ran: ids });
    assert.strictEqual(fs.readFileSync(file, 'utf8'), JSON.stringify({ ran: ids }));
  });
});
