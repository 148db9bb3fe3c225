import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openSnapshotStore } from '../../../src/snapshot/gitSnapshotStore';
import { globToGitignore } from '../../../src/snapshot/excludeRules';
import { tempDirs, write } from './support';

describe('snapshot store: exclude globs', () => {
  const dirs = tempDirs();
  afterEach(() => dirs.cleanup());

  it('applies minimatch meaning: "dist/**" at the root only, "**/x/**" at any depth, braces expanded', async () => {
    const ws = dirs.make('ws');
    for (const p of [
      'dist/bundle.js', 'src/dist/keep.js', 'packages/a/node_modules/dep/i.js', 'packages/a/index.js',
      'out.tmp', 'sub/out.tmp', 'a.cache', 'b.cache', 'c.cache', 'venv/bin/python', '.venv/lib/x.py',
    ]) write(ws, p, p);
    const store = await openSnapshotStore({
      workspace: ws, stateDir: dirs.make('state'),
      excludes: ['dist/**', '**/node_modules/**', '*.tmp', '{a,b}.cache', '.venv/**'],
    });
    const s = await store.snapshot('s');
    const recorded = async (p: string) => (await store.readFile(s.id, p)) !== null;
    assert.equal(await recorded('dist/bundle.js'), false);
    assert.equal(await recorded('src/dist/keep.js'), true);
    assert.equal(await recorded('packages/a/node_modules/dep/i.js'), false);
    assert.equal(await recorded('packages/a/index.js'), true);
    assert.equal(await recorded('out.tmp'), false);
    assert.equal(await recorded('sub/out.tmp'), true);
    assert.equal(await recorded('a.cache'), false);
    assert.equal(await recorded('b.cache'), false);
    assert.equal(await recorded('c.cache'), true);
    assert.equal(await recorded('venv/bin/python'), true);
    assert.equal(await recorded('.venv/lib/x.py'), false);
  });

  it('stops recording files that a new exclude covers, and then leaves them alone', async () => {
    const ws = dirs.make('ws');
    const state = dirs.make('state');
    write(ws, 'gen/out.js', 'generated v1');
    write(ws, 'src/a.js', 'a');
    const first = await openSnapshotStore({ workspace: ws, stateDir: state, excludes: [] });
    assert.notEqual(await first.readFile((await first.snapshot('one')).id, 'gen/out.js'), null);

    const store = await openSnapshotStore({ workspace: ws, stateDir: state, excludes: ['gen/**'] });
    const s = await store.snapshot('two');
    assert.equal(await store.readFile(s.id, 'gen/out.js'), null);
    write(ws, 'gen/out.js', 'generated v2');
    write(ws, 'src/a.js', 'changed');
    await store.restore(s.id);
    assert.equal(fs.readFileSync(path.join(ws, 'gen/out.js'), 'utf8'), 'generated v2');
    assert.equal(fs.readFileSync(path.join(ws, 'src/a.js'), 'utf8'), 'a');
  });

  it('turns globs into gitignore lines that stop git at excluded directories', () => {
    assert.deepEqual(globToGitignore('**/node_modules/**'), ['node_modules/']);
    assert.deepEqual(globToGitignore('dist/**'), ['/dist/']);
    assert.deepEqual(globToGitignore('**/*.pyc'), ['*.pyc']);
    assert.deepEqual(globToGitignore('docs/*.md'), ['/docs/*.md']);
    assert.deepEqual(globToGitignore('!keep/**'), ['!/keep/']);
    assert.deepEqual(globToGitignore('  '), []);
  });
});
