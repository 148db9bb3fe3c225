// A rollback puts back every path the loop wrote, whatever the ignore rules say by then. Here a file the loop created
// was recorded, then ignored by a later edit, and the store was opened again with other snapshot excludes (a resumed
// run after the setting changed), which drops files the rules now ignore from what git sees. Real store, real git.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { rollBack } from '../../../src/core/loop/states/rollback';
import type { RunState } from '../../../src/ports/runState';
import { DEFAULT_SNAPSHOT_EXCLUDES } from '../../../src/shared/config';
import { openSnapshotStore } from '../../../src/snapshot/gitSnapshotStore';
import { tempDirs, write } from './support';

describe('rollback: paths the loop wrote come back whatever the ignore rules say', () => {
  const dirs = tempDirs();
  afterEach(() => dirs.cleanup());

  it('removes a file the loop created and a later edit ignored, after the store forgot it', async () => {
    const ws = dirs.make('ws');
    const stateDir = dirs.make('state');
    write(ws, 'src/a.js', 'a\n');
    const first = await openSnapshotStore({ workspace: ws, stateDir, runId: 'run' });
    const baseline = await first.snapshot('baseline');
    write(ws, 'helper.js', 'module.exports = 1;\n');
    const one = await first.snapshot('iteration-1');
    write(ws, '.gitignore', 'helper.js\n');
    const two = await first.snapshot('iteration-2');

    const resumed = await openSnapshotStore({ workspace: ws, stateDir, runId: 'run', excludes: [...DEFAULT_SNAPSHOT_EXCLUDES, 'scratch/**'] });
    assert.deepEqual(await resumed.changedSince(baseline.id), ['.gitignore'], 'git no longer sees helper.js');
    const state = {
      artifacts: [],
      iterations: [{ n: 1, afterSnapshot: one.id, files: ['helper.js'] }, { n: 2, afterSnapshot: two.id, files: ['.gitignore'] }],
    } as unknown as RunState;
    const leftAlone = await rollBack({ cwd: ws, snapshots: resumed }, state, { snapshot: baseline.id, iteration: 0 });
    assert.deepEqual(leftAlone, []);
    assert.equal(fs.existsSync(path.join(ws, 'helper.js')), false, 'helper.js is gone');
    assert.equal(fs.existsSync(path.join(ws, '.gitignore')), false);
    assert.equal(fs.readFileSync(path.join(ws, 'src/a.js'), 'utf8'), 'a\n');
  });

  it('leaves an ignored file the loop never wrote as the person left it', async () => {
    const ws = dirs.make('ws');
    const stateDir = dirs.make('state');
    write(ws, '.gitignore', '*.local\n');
    write(ws, 'mine.local', 'the person\'s\n');
    write(ws, 'src/a.js', 'a\n');
    const store = await openSnapshotStore({ workspace: ws, stateDir, runId: 'run' });
    const baseline = await store.snapshot('baseline');
    write(ws, 'src/a.js', 'b\n');
    write(ws, 'mine.local', 'changed by the person meanwhile\n');
    const one = await store.snapshot('iteration-1');
    const state = { artifacts: [], iterations: [{ n: 1, afterSnapshot: one.id, files: ['src/a.js'] }] } as unknown as RunState;
    await rollBack({ cwd: ws, snapshots: store }, state, { snapshot: baseline.id, iteration: 0 });
    assert.equal(fs.readFileSync(path.join(ws, 'src/a.js'), 'utf8'), 'a\n');
    assert.equal(fs.readFileSync(path.join(ws, 'mine.local'), 'utf8'), 'changed by the person meanwhile\n');
  });
});
