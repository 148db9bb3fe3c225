import * as assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openSnapshotStore } from '../../../src/snapshot/gitSnapshotStore';
import { fingerprint, fingerprintDiff, git, tempDirs, write } from './support';

describe('snapshot store: snapshot, restore, changes', () => {
  const dirs = tempDirs();
  afterEach(() => dirs.cleanup());

  const open = (ws: string, excludes?: string[]) =>
    openSnapshotStore({ workspace: ws, stateDir: dirs.make('state'), excludes, runId: 'r1', onWarning: () => undefined });

  it('reverts changed files, deletes created ones and brings deleted ones back', async () => {
    const ws = dirs.make('ws');
    write(ws, 'src/a.ts', 'export const a = 1;\n');
    write(ws, 'src/deep/b.ts', 'export const b = 2;\n');
    write(ws, 'README.md', '# hi\n');
    const before = fingerprint(ws);
    const store = await open(ws);
    const s = await store.snapshot('baseline');
    assert.match(s.tree, /^[0-9a-f]{40}$/);

    write(ws, 'src/a.ts', 'export const a = 42;\n');
    fs.rmSync(path.join(ws, 'src/deep'), { recursive: true });
    write(ws, 'src/new/c.ts', 'new\n');
    write(ws, 'extra.txt', 'x');
    assert.deepEqual((await store.changedSince(s.id)).sort(), ['extra.txt', 'src/a.ts', 'src/deep/b.ts', 'src/new/c.ts']);

    await store.restore(s.id);
    assert.deepEqual(fingerprintDiff(before, fingerprint(ws)), []);
    assert.deepEqual(await store.changedSince(s.id), []);
  });

  it('gives a shell command that prints a file as a snapshot holds it, whatever its name', async () => {
    const ws = dirs.make('ws');
    const name = "test/it's a test.js";
    write(ws, name, 'as written by the tests\n');
    const store = await open(ws);
    const kept = await store.snapshot('kept');
    write(ws, name, 'put back\n');
    assert.equal(execSync(store.showCommand(kept.id, name), { encoding: 'utf8' }), 'as written by the tests\n');
  });

  it('restores only the paths it is given: another file changed or created meanwhile stays byte for byte', async () => {
    const ws = dirs.make('ws');
    write(ws, 'src/a.ts', 'a1\n');
    write(ws, 'README.md', '# one\n');
    const store = await open(ws);
    const s = await store.snapshot('best');
    write(ws, 'src/a.ts', 'a2 (the loop)\n');
    write(ws, 'src/new.ts', 'created by the loop\n');
    write(ws, 'README.md', '# edited by the person\n');
    write(ws, 'NOTES.md', 'saved by the person\n');
    await store.restorePaths(s.id, ['src/a.ts', 'src/new.ts', 'src/never-existed.ts']);
    assert.equal(fs.readFileSync(path.join(ws, 'src/a.ts'), 'utf8'), 'a1\n');
    assert.equal(fs.existsSync(path.join(ws, 'src/new.ts')), false);
    assert.equal(fs.readFileSync(path.join(ws, 'README.md'), 'utf8'), '# edited by the person\n');
    assert.equal(fs.readFileSync(path.join(ws, 'NOTES.md'), 'utf8'), 'saved by the person\n');
    assert.deepEqual((await store.changedSince(s.id)).sort(), ['NOTES.md', 'README.md']);
  });

  it('gives equal trees for equal states and reports changes, diffs and file contents between snapshots', async () => {
    const ws = dirs.make('ws');
    write(ws, 'a.txt', 'one\n');
    write(ws, 'b.txt', 'bee\n');
    const store = await open(ws);
    const s1 = await store.snapshot('one');
    write(ws, 'a.txt', 'two\n');
    const s2 = await store.snapshot('two');
    write(ws, 'a.txt', 'one\n');
    const s3 = await store.snapshot('three');

    assert.notEqual(s1.tree, s2.tree);
    assert.equal(s1.tree, s3.tree);
    assert.notEqual(s1.id, s3.id);
    assert.deepEqual(await store.changedBetween(s1.id, s2.id), ['a.txt']);
    assert.deepEqual(await store.changedBetween(s1.id, s3.id), []);
    const d = await store.diff(s1.id, s2.id);
    assert.match(d, /^--- a\/a\.txt$/m);
    assert.match(d, /^-one$/m);
    assert.match(d, /^\+two$/m);
    assert.equal(await store.diff(s1.id, s2.id, ['b.txt']), '');
    assert.equal((await store.readFile(s2.id, 'a.txt'))?.toString(), 'two\n');
    assert.equal(await store.readFile(s2.id, 'missing.txt'), null);
    assert.equal(await store.readFile(s2.id, '.'), null);
  });

  it('leaves ignored and excluded files alone, whatever happens to them', async () => {
    const ws = dirs.make('ws');
    write(ws, '.gitignore', '*.log\nsecret/\n');
    write(ws, 'app.js', 'ok\n');
    write(ws, 'debug.log', 'old log\n');
    write(ws, 'secret/key', 'k1');
    write(ws, 'node_modules/lib/index.js', 'lib v1\n');
    write(ws, 'dist/out.js', 'built v1\n');
    write(ws, 'cache/x.tmp', 'tmp v1');
    const store = await open(ws, ['**/node_modules/**', 'dist/**', 'cache/*.tmp']);
    const s = await store.snapshot('base');
    assert.equal(await store.readFile(s.id, 'debug.log'), null);
    assert.equal(await store.readFile(s.id, 'node_modules/lib/index.js'), null);
    assert.equal(await store.readFile(s.id, 'cache/x.tmp'), null);

    write(ws, 'app.js', 'changed\n');
    write(ws, 'debug.log', 'new log\n');
    write(ws, 'other.log', 'created\n');
    write(ws, 'secret/key', 'k2');
    write(ws, 'node_modules/lib/index.js', 'lib v2\n');
    write(ws, 'node_modules/new/x.js', 'x');
    fs.rmSync(path.join(ws, 'dist'), { recursive: true });
    write(ws, 'cache/x.tmp', 'tmp v2');
    assert.deepEqual(await store.changedSince(s.id), ['app.js']);

    await store.restore(s.id);
    const read = (p: string) => fs.readFileSync(path.join(ws, p), 'utf8');
    assert.equal(read('app.js'), 'ok\n');
    assert.equal(read('debug.log'), 'new log\n');
    assert.equal(read('other.log'), 'created\n');
    assert.equal(read('secret/key'), 'k2');
    assert.equal(read('node_modules/lib/index.js'), 'lib v2\n');
    assert.equal(read('node_modules/new/x.js'), 'x');
    assert.equal(read('cache/x.tmp'), 'tmp v2');
    assert.equal(fs.existsSync(path.join(ws, 'dist')), false);
  });

  it('works in an empty folder and in a folder that is not a repository', async () => {
    const ws = dirs.make('ws');
    const store = await open(ws);
    const empty = await store.snapshot('empty');
    assert.equal(empty.tree, '4b825dc642cb6eb9a060e54bf8d69288fbee4904');
    write(ws, 'a/b/c.txt', 'c');
    const one = await store.snapshot('one');
    await store.restore(empty.id);
    assert.deepEqual(fs.readdirSync(ws), []);
    await store.restore(one.id);
    assert.equal(fs.readFileSync(path.join(ws, 'a/b/c.txt'), 'utf8'), 'c');
    assert.equal(fs.existsSync(path.join(ws, '.git')), false);
  });

  it('keeps names with spaces and non-ASCII, executable bits and CRLF bytes exactly, despite .gitattributes', async () => {
    const ws = dirs.make('ws');
    write(ws, '.gitattributes', '* text=auto eol=lf\n*.txt filter=nosuch ident\n');
    write(ws, 'dir with space/naïve ü 文件.txt', 'line1\r\nline2\r\n$Id$\r\n');
    write(ws, 'mixed.txt', Buffer.from('a\r\nb\nc\rd\r\n\x00\xff'));
    write(ws, 'run.sh', '#!/bin/sh\necho hi\n', 0o755);
    write(ws, 'plain.sh', 'echo no\n', 0o644);
    const before = fingerprint(ws);
    const store = await open(ws);
    const s = await store.snapshot('base');
    assert.deepEqual(await store.readFile(s.id, 'dir with space/naïve ü 文件.txt'), Buffer.from('line1\r\nline2\r\n$Id$\r\n'));

    write(ws, 'dir with space/naïve ü 文件.txt', 'lf only\n');
    write(ws, 'mixed.txt', 'gone');
    fs.chmodSync(path.join(ws, 'run.sh'), 0o644);
    fs.chmodSync(path.join(ws, 'plain.sh'), 0o755);
    fs.rmSync(path.join(ws, 'dir with space'), { recursive: true });
    assert.equal((await store.changedSince(s.id)).length, 4);

    await store.restore(s.id);
    assert.deepEqual(fingerprintDiff(before, fingerprint(ws)), []);
  });

  it('stores symlinks as links and never writes through one out of the workspace', async () => {
    const ws = dirs.make('ws');
    const outside = dirs.make('outside');
    write(outside, 'secret.txt', 'outside data');
    write(ws, 'd/f.txt', 'inside');
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'link-out'));
    fs.symlinkSync('d/f.txt', path.join(ws, 'link-in'));
    const store = await open(ws);
    const s = await store.snapshot('base');
    assert.equal((await store.readFile(s.id, 'link-out'))?.toString(), path.join(outside, 'secret.txt'));
    const outsideBefore = fingerprint(outside);

    // Replace the directory by a link to the outside, and the links by plain files.
    fs.rmSync(path.join(ws, 'd'), { recursive: true });
    fs.symlinkSync(outside, path.join(ws, 'd'));
    fs.rmSync(path.join(ws, 'link-out'));
    write(ws, 'link-out', 'now a file');
    fs.rmSync(path.join(ws, 'link-in'));

    await store.restore(s.id);
    assert.deepEqual(fingerprintDiff(outsideBefore, fingerprint(outside)), []);
    assert.equal(fs.lstatSync(path.join(ws, 'd')).isDirectory(), true);
    assert.equal(fs.readFileSync(path.join(ws, 'd/f.txt'), 'utf8'), 'inside');
    assert.equal(fs.readlinkSync(path.join(ws, 'link-out')), path.join(outside, 'secret.txt'));
    assert.equal(fs.readlinkSync(path.join(ws, 'link-in')), 'd/f.txt');
  });

  it('explains an unknown snapshot id in one sentence', async () => {
    const ws = dirs.make('ws');
    const store = await open(ws);
    await assert.rejects(store.restore('r1/99'), /Snapshot r1\/99 is not in the store .*take a new snapshot\./);
    await assert.rejects(store.restore('HEAD; rm -rf /'), /is not a snapshot id of this store/);
  });

  it('records a repository with staged, unstaged and untracked changes as it is on disk', async () => {
    const ws = dirs.make('ws');
    git(ws, ['init', '-q']);
    write(ws, 'a.txt', 'committed\n');
    write(ws, 'b.txt', 'committed b\n');
    git(ws, ['add', '.']);
    git(ws, ['commit', '-qm', 'init']);
    write(ws, 'a.txt', 'staged\n');
    git(ws, ['add', 'a.txt']);
    write(ws, 'a.txt', 'staged then edited\n');
    write(ws, 'b.txt', 'unstaged\n');
    write(ws, 'u.txt', 'untracked\n');
    const before = fingerprint(ws, ['.git']);
    const store = await open(ws);
    const s = await store.snapshot('base');
    assert.equal((await store.readFile(s.id, 'a.txt'))?.toString(), 'staged then edited\n');
    assert.equal(await store.readFile(s.id, '.git/HEAD'), null);
    fs.rmSync(path.join(ws, 'u.txt'));
    write(ws, 'a.txt', 'x');
    await store.restore(s.id);
    assert.deepEqual(fingerprintDiff(before, fingerprint(ws, ['.git'])), []);
    assert.equal(git(ws, ['status', '--porcelain']), 'MM a.txt\n M b.txt\n?? u.txt\n');
  });
});
