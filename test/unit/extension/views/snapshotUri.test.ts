import * as assert from 'assert';
import { SNAPSHOT_SCHEME, parseSnapshotUri, snapshotUriParts } from '../../../../src/extension/views/snapshotUri';

describe('snapshot addresses for diff editors', () => {
  it('round-trips folder, snapshot and path, keeping the file name for language detection', () => {
    const address = { folder: 'file:///home/me/my%20project', snapshot: 'a1b2c3', relPath: 'src/dir with space/ünï?#.ts' };
    const parts = snapshotUriParts(address);
    assert.strictEqual(parts.scheme, SNAPSHOT_SCHEME);
    assert.strictEqual(parts.path, '/src/dir with space/ünï?#.ts');
    assert.deepStrictEqual(parseSnapshotUri(parts.path, parts.query), address);
  });

  it('normalizes Windows separators and leading slashes', () => {
    assert.strictEqual(snapshotUriParts({ folder: 'f', snapshot: 's', relPath: '\\src\\a.ts' }).path, '/src/a.ts');
  });

  it('refuses addresses it did not make', () => {
    for (const [path, query] of [['/a.ts', ''], ['/a.ts', 'not json'], ['/a.ts', '{"folder":"f"}'], ['/a.ts', '{"folder":"","snapshot":"s"}'], ['/', '{"folder":"f","snapshot":"s"}'], ['/a.ts', 'null']]) {
      assert.strictEqual(parseSnapshotUri(path, query), null, `${path}?${query}`);
    }
  });
});
