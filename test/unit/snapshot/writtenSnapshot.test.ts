// A snapshot told which files were written looks at those alone. It must record exactly the tree a full look
// would, and a file it was not told about must still show up in the next changedSince (nothing is lost).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openSnapshotStore } from '../../../src/snapshot/gitSnapshotStore';
import { git, tempDirs, write } from './support';

describe('snapshot store: a snapshot told which files were written', () => {
  const dirs = tempDirs();
  afterEach(() => dirs.cleanup());

  const open = async (ws: string) => {
    const state = dirs.make('state');
    const store = await openSnapshotStore({ workspace: ws, stateDir: state, runId: 'r1', onWarning: () => undefined });
    return store;
  };

  function workspace(): string {
    const ws = dirs.make('ws');
    write(ws, 'src/a.ts', 'export const a = 1;\n');
    write(ws, 'src/b.ts', 'export const b = 2;\n');
    write(ws, 'README.md', '# hi\n');
    return ws;
  }

  it('records a changed file, a new file in a new folder and a removed file exactly as a full snapshot does', async () => {
    const ws = workspace();
    const store = await open(ws);
    const base = await store.snapshot('baseline');
    write(ws, 'src/a.ts', 'export const a = 42;\n');
    write(ws, 'src/new/c.ts', 'export const c = 3;\n');
    fs.rmSync(path.join(ws, 'src/b.ts'));
    const told = await store.snapshot('told', ['src/a.ts', 'src/new/c.ts', 'src/b.ts']);
    const full = await store.snapshot('full');
    assert.equal(told.tree, full.tree);
    assert.notEqual(told.tree, base.tree);
    assert.deepEqual((await store.changedBetween(base.id, told.id)).sort(), ['src/a.ts', 'src/b.ts', 'src/new/c.ts']);
  });

  it('looks only at the files it is told: another file saved meanwhile is left to the next look, which finds it', async () => {
    const ws = workspace();
    const store = await open(ws);
    const base = await store.snapshot('baseline');
    write(ws, 'src/a.ts', 'export const a = 42;\n');
    write(ws, 'README.md', '# saved by the person meanwhile\n');
    const told = await store.snapshot('told', ['src/a.ts']);
    assert.deepEqual(await store.changedBetween(base.id, told.id), ['src/a.ts']);
    assert.deepEqual(await store.changedSince(told.id), ['README.md']);
  });

  it('with nothing written, records what the last look saw without looking again', async () => {
    const ws = workspace();
    const store = await open(ws);
    const base = await store.snapshot('baseline');
    write(ws, 'report.xml', '<testsuites/>\n');
    assert.deepEqual(await store.changedSince(base.id), ['report.xml']);
    const settled = await store.snapshot('settled', []);
    assert.deepEqual(await store.changedBetween(base.id, settled.id), ['report.xml']);
    assert.deepEqual(await store.changedSince(settled.id), []);
  });

  it('falls back to a full look when git refuses a path (one beyond a linked folder), and still records the edit', async () => {
    const ws = workspace();
    fs.symlinkSync('src', path.join(ws, 'linked'));
    const store = await open(ws);
    const base = await store.snapshot('baseline');
    write(ws, 'src/a.ts', 'export const a = 7;\n');
    const told = await store.snapshot('told', ['linked/a.ts']);
    assert.deepEqual(await store.changedBetween(base.id, told.id), ['src/a.ts']);
    assert.deepEqual(await store.changedSince(told.id), []);
  });

  it('records a file written inside a nested repository as its file, never as a gitlink', async () => {
    const ws = workspace();
    write(ws, 'vendor/lib/index.js', 'module.exports = 1;\n');
    git(path.join(ws, 'vendor/lib'), ['init', '-q']);
    const store = await open(ws);
    const base = await store.snapshot('baseline');
    write(ws, 'vendor/lib/index.js', 'module.exports = 2;\n');
    write(ws, 'vendor/lib/extra.js', 'module.exports = 3;\n');
    const told = await store.snapshot('told', ['vendor/lib/index.js', 'vendor/lib/extra.js']);
    assert.deepEqual((await store.changedBetween(base.id, told.id)).sort(), ['vendor/lib/extra.js', 'vendor/lib/index.js']);
    assert.equal((await store.readFile(told.id, 'vendor/lib/extra.js'))?.toString(), 'module.exports = 3;\n');
    assert.deepEqual(await store.changedSince(told.id), []);
  });

  it('does not record a git-ignored file it is told about', async () => {
    const ws = workspace();
    write(ws, '.gitignore', 'dist/\n');
    const store = await open(ws);
    const base = await store.snapshot('baseline');
    write(ws, 'dist/out.js', 'built\n');
    write(ws, 'src/a.ts', 'export const a = 5;\n');
    const told = await store.snapshot('told', ['dist/out.js', 'src/a.ts']);
    assert.deepEqual(await store.changedBetween(base.id, told.id), ['src/a.ts']);
  });
});
