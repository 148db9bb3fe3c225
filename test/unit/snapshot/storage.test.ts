import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openSnapshotStore } from '../../../src/snapshot/gitSnapshotStore';
import { defaultStateDir } from '../../../src/base/stateDir';
import { fingerprint, git, tempDirs, write } from './support';

/** Loose and packed objects of a store, as git counts them. */
function objectCount(storeDir: string): number {
  const out = git(os.tmpdir(), [`--git-dir=${storeDir}`, 'count-objects', '-v']);
  const num = (k: string) => Number(new RegExp(`^${k}: (\\d+)$`, 'm').exec(out)?.[1] ?? NaN);
  return num('count') + num('in-pack');
}

describe('snapshot store: storage outside the workspace', () => {
  const dirs = tempDirs();
  afterEach(() => dirs.cleanup());

  it('keeps everything under the state dir, one store per folder however it is spelled', async () => {
    const ws = dirs.make('ws');
    write(ws, 'a.txt', 'a');
    const state = dirs.make('state');
    const before = fingerprint(ws);
    const store = await openSnapshotStore({ workspace: ws, stateDir: state });
    await store.snapshot('one');
    assert.deepEqual(fingerprint(ws), before);
    assert.equal(path.dirname(store.storeDir), path.join(state, 'snapshots'));
    assert.match(path.basename(store.storeDir), /^[0-9a-f]{16}$/);

    const alias = path.join(dirs.make('alias'), 'link');
    fs.symlinkSync(ws, alias);
    const again = await openSnapshotStore({ workspace: alias, stateDir: state });
    assert.equal(again.storeDir, store.storeDir);
    const other = await openSnapshotStore({ workspace: dirs.make('ws2'), stateDir: state });
    assert.notEqual(other.storeDir, store.storeDir);
  });

  it('uses XDG_STATE_HOME, else ~/.local/state, on Linux', () => {
    assert.equal(defaultStateDir({ XDG_STATE_HOME: '/x/state' }, 'linux'), '/x/state/greenloop');
    assert.equal(defaultStateDir({}, 'linux'), path.join(os.homedir(), '.local', 'state', 'greenloop'));
    assert.equal(defaultStateDir({ XDG_STATE_HOME: 'relative' }, 'linux'), path.join(os.homedir(), '.local', 'state', 'greenloop'));
  });

  it('moves a corrupt store aside (never deletes it) with a warning, and starts a new one', async () => {
    const ws = dirs.make('ws');
    write(ws, 'a.txt', 'a');
    const state = dirs.make('state');
    const first = await openSnapshotStore({ workspace: ws, stateDir: state, runId: 'old' });
    const old = await first.snapshot('before damage');
    fs.writeFileSync(path.join(first.storeDir, 'HEAD'), 'garbage');
    fs.rmSync(path.join(first.storeDir, 'objects'), { recursive: true });

    const warnings: string[] = [];
    const store = await openSnapshotStore({ workspace: ws, stateDir: state, onWarning: (m) => warnings.push(m) });
    assert.equal(warnings.length, 1);
    const aside = /moved aside to (\S+) \(not deleted\)/.exec(warnings[0])?.[1];
    assert.ok(aside && fs.existsSync(path.join(aside, 'refs')), warnings[0]);
    assert.equal(fs.readFileSync(path.join(aside, 'HEAD'), 'utf8'), 'garbage', 'the old store is kept as it was');
    const s = await store.snapshot('after');
    assert.equal(s.tree, old.tree);
    await assert.rejects(store.restore(old.id), /is not in the store/);
  });

  it('keeps the store when its own gitconfig is garbage: that file is rewritten, the snapshots stay', async () => {
    const ws = dirs.make('ws');
    write(ws, 'a.txt', 'a');
    const state = dirs.make('state');
    const first = await openSnapshotStore({ workspace: ws, stateDir: state, runId: 'keep' });
    const old = await first.snapshot('before');
    fs.writeFileSync(path.join(path.dirname(first.storeDir), 'gitconfig'), '[[[ not a config');
    const warnings: string[] = [];
    const store = await openSnapshotStore({ workspace: ws, stateDir: state, onWarning: (m) => warnings.push(m) });
    assert.deepEqual(warnings, []);
    write(ws, 'a.txt', 'changed');
    await store.restore(old.id);
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'a');
  });

  it('says git is missing in one sentence and touches no store', async () => {
    const ws = dirs.make('ws');
    const state = dirs.make('state');
    const first = await openSnapshotStore({ workspace: ws, stateDir: state, runId: 'x' });
    await first.snapshot('one');
    const before = fs.readdirSync(path.dirname(first.storeDir)).sort();
    const savedPath = process.env.PATH;
    process.env.PATH = dirs.make('no-git-here');
    try {
      await assert.rejects(openSnapshotStore({ workspace: ws, stateDir: state }), /^GitError: git was not found on PATH; install git/);
    } finally {
      process.env.PATH = savedPath;
    }
    assert.deepEqual(fs.readdirSync(path.dirname(first.storeDir)).sort(), before);
    assert.ok(fs.existsSync(path.join(first.storeDir, 'objects')), 'the store is still there');
  });

  it('rebuilds a damaged index with a warning and still records the right tree', async () => {
    const ws = dirs.make('ws');
    write(ws, 'src/a.txt', 'a');
    const warnings: string[] = [];
    const store = await openSnapshotStore({ workspace: ws, stateDir: dirs.make('state'), onWarning: (m) => warnings.push(m) });
    const s1 = await store.snapshot('one');
    fs.writeFileSync(path.join(store.storeDir, 'greenloop.index'), 'DIRC but not really');
    write(ws, 'src/b.txt', 'b');
    const s2 = await store.snapshot('two');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /index was damaged/);
    assert.deepEqual(await store.changedBetween(s1.id, s2.id), ['src/b.txt']);
    await store.restore(s1.id);
    assert.equal(fs.existsSync(path.join(ws, 'src/b.txt')), false);
  });

  it('writes only the changed file, its trees and a commit for a one-file edit', async () => {
    const ws = dirs.make('ws');
    for (let i = 0; i < 50; i++) write(ws, `pkg/mod/f${i}.txt`, `file ${i}\n`.repeat(20));
    const store = await openSnapshotStore({ workspace: ws, stateDir: dirs.make('state') });
    await store.snapshot('one');
    const before = objectCount(store.storeDir);
    write(ws, 'pkg/mod/f7.txt', 'edited\n');
    await store.snapshot('two');
    // blob + trees for "pkg/mod", "pkg" and the root + the commit.
    assert.equal(objectCount(store.storeDir) - before, 5);
  });

  it("deleting a run prunes what only it used and keeps other runs' snapshots", async () => {
    const ws = dirs.make('ws');
    const state = dirs.make('state');
    write(ws, 'shared.txt', 'shared');
    const a = await openSnapshotStore({ workspace: ws, stateDir: state, runId: 'run-a' });
    write(ws, 'only-a.bin', Buffer.alloc(200_000, 7));
    const sa = await a.snapshot('a');
    fs.rmSync(path.join(ws, 'only-a.bin'));
    const b = await openSnapshotStore({ workspace: ws, stateDir: state, runId: 'run-b' });
    write(ws, 'b.txt', 'b');
    const sb = await b.snapshot('b');
    const onlyA = git(ws, [`--git-dir=${a.storeDir}`, 'rev-parse', `${sa.tree}:only-a.bin`]).trim();

    await b.deleteRun('run-a');
    assert.deepEqual(await b.listSnapshots('run-a'), []);
    assert.throws(() => git(ws, [`--git-dir=${a.storeDir}`, 'cat-file', '-e', onlyA]));
    await assert.rejects(a.restore(sa.id), /is not in the store/);
    write(ws, 'b.txt', 'changed');
    await b.restore(sb.id);
    assert.equal(fs.readFileSync(path.join(ws, 'b.txt'), 'utf8'), 'b');
    assert.equal(fs.readFileSync(path.join(ws, 'shared.txt'), 'utf8'), 'shared');
  });

  it('writes commits git itself accepts, labelled as asked', async () => {
    const ws = dirs.make('ws');
    write(ws, 'a.txt', 'a');
    const store = await openSnapshotStore({ workspace: ws, stateDir: dirs.make('state'), runId: 'r' });
    const s1 = await store.snapshot('iteration 1: fix the parser');
    await store.snapshot('');
    const gitIn = (argv: string[]) => git(ws, [`--git-dir=${store.storeDir}`, ...argv]);
    assert.equal(gitIn(['log', '-1', '--format=%s', 'refs/greenloop/r/1']).trim(), 'iteration 1: fix the parser');
    assert.equal(gitIn(['log', '-1', '--format=%s', 'refs/greenloop/r/2']).trim(), 'snapshot');
    assert.equal(gitIn(['rev-parse', 'refs/greenloop/r/1^{tree}']).trim(), s1.tree);
    gitIn(['fsck', '--strict', '--no-dangling']);
  });

  it('continues numbering when a run is reopened', async () => {
    const ws = dirs.make('ws');
    const state = dirs.make('state');
    const s1 = await (await openSnapshotStore({ workspace: ws, stateDir: state, runId: 'r' })).snapshot('one');
    const s2 = await (await openSnapshotStore({ workspace: ws, stateDir: state, runId: 'r' })).snapshot('two');
    assert.equal(s1.id, 'r/1');
    assert.equal(s2.id, 'r/2');
  });

  it('refuses a workspace that does not exist, in one sentence', async () => {
    await assert.rejects(
      openSnapshotStore({ workspace: path.join(os.tmpdir(), 'gl-no-such-folder-xyz'), stateDir: dirs.make('state') }),
      /does not exist or is not a folder; open an existing folder and try again\./,
    );
  });
});
