// One change carried over onto another state, in the store only (what re-judges the latest attempt on the best state):
// the change's own result where the other state holds what it started from, the change's own lines where both
// changed the same file in different places (neighbouring lines too), and a conflict — nothing recorded, the lines
// named — where they changed the very same lines.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openSnapshotStore } from '../../../src/snapshot/gitSnapshotStore';
import { tempDirs, write } from './support';

const CALC = "function add(a, b) {\n  return a - b;\n}\n\nfunction mul(a, b) {\n  return a + b;\n}\n\nfunction neg(a) {\n  return -a;\n}\n";

describe('snapshot store: replay a change onto another state', () => {
  const dirs = tempDirs();
  afterEach(() => dirs.cleanup());

  async function states() {
    const ws = dirs.make('ws');
    write(ws, 'src/calc.js', CALC);
    write(ws, 'src/other.js', 'one\n');
    const store = await openSnapshotStore({ workspace: ws, stateDir: dirs.make('state') });
    const best = await store.snapshot('best');
    // An earlier edit, kept without a whole-suite run: it breaks neg and adds a file.
    write(ws, 'src/calc.js', CALC.replace('return -a;', 'return a;'));
    write(ws, 'src/extra.js', 'extra\n');
    const from = await store.snapshot('from');
    return { ws, store, best, from };
  }

  it('carries the change alone onto the best state, merging a file both changed in different places, without touching the workspace', async () => {
    const { ws, store, best, from } = await states();
    write(ws, 'src/calc.js', CALC.replace('return a;', 'return a;').replace('return -a;', 'return a;').replace('return a - b;', 'return a + b;'));
    write(ws, 'src/other.js', 'two\n');
    const after = await store.snapshot('after');
    const onDisk = fs.readFileSync(path.join(ws, 'src/calc.js'), 'utf8');
    const r = await store.replay(from.id, after.id, best.id);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.paths.sort(), ['src/calc.js', 'src/other.js']);
    const calc = (await store.readFile(r.snapshot.id, 'src/calc.js'))!.toString();
    assert.match(calc, /return a \+ b;/, 'the change is there');
    assert.match(calc, /return -a;/, 'the earlier edit is not');
    assert.equal((await store.readFile(r.snapshot.id, 'src/other.js'))!.toString(), 'two\n');
    assert.equal(await store.readFile(r.snapshot.id, 'src/extra.js'), null, 'a file only the earlier edit made is not there');
    assert.equal(fs.readFileSync(path.join(ws, 'src/calc.js'), 'utf8'), onDisk, 'the workspace is as it was');
  });

  it('names the files where both changed the same lines, and records nothing', async () => {
    const { ws, store, best, from } = await states();
    write(ws, 'src/calc.js', CALC.replace('return -a;', 'return 0 - a;'));
    const after = await store.snapshot('after');
    const r = await store.replay(from.id, after.id, best.id);
    assert.deepEqual(r, { ok: false, conflicts: [{ path: 'src/calc.js', lines: [{ start: 10, count: 1 }] }] });
  });

  it('carries a change of the line right next to the earlier edit (git merge-file calls that a conflict)', async () => {
    const { ws, store, best, from } = await states();
    // The earlier edit changed line 10 (`return a;`); this one changes line 9, the function's first line.
    write(ws, 'src/calc.js', CALC.replace('return -a;', 'return a;').replace('function neg(a) {', 'function neg(a) { // negates'));
    const after = await store.snapshot('after');
    const r = await store.replay(from.id, after.id, best.id);
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal((await store.readFile(r.snapshot.id, 'src/calc.js'))!.toString(), CALC.replace('function neg(a) {', 'function neg(a) { // negates'));
  });

  it('names a file removed by the change that the earlier edit changed as a whole, and lines the earlier edit added as added', async () => {
    const ws = dirs.make('ws');
    write(ws, 'a.js', 'one\ntwo\nthree\n');
    write(ws, 'b.js', 'x\n');
    const store = await openSnapshotStore({ workspace: ws, stateDir: dirs.make('state') });
    const best = await store.snapshot('best');
    write(ws, 'a.js', 'one\ntwo\nadded\nthree\n');
    write(ws, 'b.js', 'y\n');
    const from = await store.snapshot('from');
    write(ws, 'a.js', 'one\ntwo\nadded, changed\nthree\n');
    fs.rmSync(path.join(ws, 'b.js'));
    const after = await store.snapshot('after');
    const r = await store.replay(from.id, after.id, best.id);
    assert.deepEqual(r, { ok: false, conflicts: [{ path: 'a.js', lines: [{ start: 2, count: 0 }] }, { path: 'b.js', lines: [] }] });
  });
});
