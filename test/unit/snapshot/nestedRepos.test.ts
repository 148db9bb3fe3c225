import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openSnapshotStore, type GitSnapshotStore } from '../../../src/snapshot/gitSnapshotStore';
import { fingerprint, fingerprintDiff, git, tempDirs, write } from './support';

describe('snapshot store: nested repositories and submodules', () => {
  const dirs = tempDirs();
  afterEach(() => dirs.cleanup());

  const treeEntries = (store: GitSnapshotStore, tree: string) =>
    git(store.workspace, [`--git-dir=${store.storeDir}`, 'ls-tree', '-r', tree]).trim().split('\n');

  function makeWorkspace(): string {
    const upstream = dirs.make('upstream');
    git(upstream, ['init', '-q']);
    write(upstream, 'lib.c', 'int lib(void) { return 1; }\n');
    git(upstream, ['add', '.']);
    git(upstream, ['commit', '-qm', 'lib']);

    const ws = dirs.make('ws');
    git(ws, ['init', '-q']);
    write(ws, 'main.c', 'int main(void) { return 0; }\n');
    git(ws, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', upstream, 'deps/lib']);
    git(ws, ['commit', '-qm', 'with submodule']);
    // A clone living inside the folder without being a submodule, and a fresh repository with no commit.
    git(ws, ['clone', '-q', upstream, 'vendor/copy']);
    write(ws, 'scratch/notes/todo.txt', 'todo\n');
    git(path.join(ws, 'scratch'), ['init', '-q']);
    write(ws, 'scratch/.gitignore', '*.tmp\n');
    write(ws, 'scratch/ignored.tmp', 'tmp\n');
    return ws;
  }

  it('records the files inside submodules and nested repositories, never a gitlink', async () => {
    const ws = makeWorkspace();
    const store = await openSnapshotStore({ workspace: ws, stateDir: dirs.make('state'), onWarning: () => undefined });
    const s = await store.snapshot('base');
    const entries = treeEntries(store, s.tree);
    assert.deepEqual(entries.filter((e) => e.includes(' commit ')), []);
    const paths = entries.map((e) => e.split('\t')[1]).sort();
    assert.deepEqual(paths, [
      '.gitmodules', 'deps/lib/lib.c', 'main.c', 'scratch/.gitignore', 'scratch/notes/todo.txt', 'vendor/copy/lib.c',
    ]);
  });

  it('restores files inside nested repositories and leaves every .git exactly as it was', async () => {
    const ws = makeWorkspace();
    const before = fingerprint(ws);
    const store = await openSnapshotStore({ workspace: ws, stateDir: dirs.make('state'), onWarning: () => undefined });
    const s = await store.snapshot('base');

    write(ws, 'deps/lib/lib.c', 'broken');
    write(ws, 'deps/lib/new.c', 'new');
    fs.rmSync(path.join(ws, 'vendor/copy/lib.c'));
    write(ws, 'scratch/notes/todo.txt', 'done\n');
    write(ws, 'scratch/notes/more/deeper.txt', 'deeper\n');
    assert.deepEqual((await store.changedSince(s.id)).sort(), [
      'deps/lib/lib.c', 'deps/lib/new.c', 'scratch/notes/more/deeper.txt', 'scratch/notes/todo.txt', 'vendor/copy/lib.c',
    ]);
    await store.restore(s.id);
    assert.deepEqual(fingerprintDiff(before, fingerprint(ws)), []);
    assert.equal(git(path.join(ws, 'deps/lib'), ['status', '--porcelain']), '');
  });

  it('picks up a repository cloned into the folder during a run', async () => {
    const ws = dirs.make('ws');
    write(ws, 'a.txt', 'a');
    const store = await openSnapshotStore({ workspace: ws, stateDir: dirs.make('state'), onWarning: () => undefined });
    const s1 = await store.snapshot('one');
    const upstream = dirs.make('upstream');
    git(upstream, ['init', '-q']);
    write(upstream, 'x/y.txt', 'y');
    git(upstream, ['add', '.']);
    git(upstream, ['commit', '-qm', 'y']);
    git(ws, ['clone', '-q', upstream, 'later']);
    assert.deepEqual(await store.changedSince(s1.id), ['later/x/y.txt']);
    const s2 = await store.snapshot('two');
    assert.equal((await store.readFile(s2.id, 'later/x/y.txt'))?.toString(), 'y');
    const gitDirBefore = fingerprint(path.join(ws, 'later/.git'));
    await store.restore(s1.id);
    // The clone's files were created since s1 and are removed; its .git is not ours to delete or touch.
    assert.equal(fs.existsSync(path.join(ws, 'later/x')), false);
    assert.deepEqual(fingerprintDiff(gitDirBefore, fingerprint(path.join(ws, 'later/.git'))), []);
  });
});
