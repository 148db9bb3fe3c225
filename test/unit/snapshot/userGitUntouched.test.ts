import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openSnapshotStore } from '../../../src/snapshot/gitSnapshotStore';
import { fingerprint, fingerprintDiff, git, tempDirs, withEnv, write } from './support';

describe("snapshot store: the user's git state is never changed", () => {
  const dirs = tempDirs();
  afterEach(() => dirs.cleanup());

  /** A script that leaves a marker when anything runs it: a hook, an fsmonitor, a filter. */
  function trap(marker: string): string {
    const bin = dirs.make('trap');
    const p = path.join(bin, 'trap.sh');
    write(bin, 'trap.sh', `#!/bin/sh\necho "$0 $*" >> '${marker}'\ncat\n`, 0o755);
    return p;
  }

  function lockFiles(root: string): string[] {
    return [...fingerprint(root).keys()].filter((p) => p.endsWith('.lock'));
  }

  async function exercise(ws: string, state: string): Promise<void> {
    const store = await openSnapshotStore({ workspace: ws, stateDir: state, runId: 'a', onWarning: () => undefined });
    const s1 = await store.snapshot('one');
    write(ws, 'src/app.js', 'edited by the loop\n');
    write(ws, 'created.js', 'new\n');
    const s2 = await store.snapshot('two');
    await store.changedSince(s1.id);
    await store.diff(s1.id, s2.id);
    await store.readFile(s2.id, 'created.js');
    await store.restore(s1.id);
    await store.deleteRun('a');
  }

  function userRepo(trapScript: string): string {
    const ws = dirs.make('ws');
    git(ws, ['init', '-q', '-b', 'main']);
    write(ws, 'src/app.js', 'v1\n');
    write(ws, 'README.md', 'readme\n');
    git(ws, ['add', '.']);
    git(ws, ['commit', '-qm', 'one']);
    git(ws, ['branch', 'feature']);
    write(ws, 'src/app.js', 'stashed\n');
    git(ws, ['stash', '-q']);
    write(ws, 'README.md', 'staged\n');
    git(ws, ['add', 'README.md']);
    write(ws, 'src/app.js', 'unstaged\n');
    write(ws, 'notes.txt', 'untracked\n');
    // Their config asks for hooks, an fsmonitor and a clean/smudge filter: none of it may run for us.
    for (const h of ['pre-commit', 'post-commit', 'post-checkout', 'post-index-change', 'reference-transaction', 'pre-auto-gc']) {
      fs.copyFileSync(trapScript, path.join(ws, '.git', 'hooks', h));
      fs.chmodSync(path.join(ws, '.git', 'hooks', h), 0o755);
    }
    git(ws, ['config', 'core.fsmonitor', trapScript]);
    git(ws, ['config', 'filter.trap.clean', trapScript]);
    git(ws, ['config', 'filter.trap.smudge', trapScript]);
    write(ws, '.gitattributes', '*.js filter=trap\n');
    return ws;
  }

  it('leaves HEAD, refs, index bytes, stash, config and hooks identical and runs none of their programs', async () => {
    const marker = path.join(dirs.make('marker'), 'ran');
    const trapScript = trap(marker);
    const ws = userRepo(trapScript);
    const home = dirs.make('home');
    write(home, '.gitconfig', `[core]\n\thooksPath = ${path.dirname(trapScript)}\n\tfsmonitor = ${trapScript}\n[filter "trap"]\n\tclean = ${trapScript}\n`);
    const gitBefore = fingerprint(path.join(ws, '.git'));
    const stashBefore = git(ws, ['stash', 'list']);

    // Variables that would point any careless git call at the user's repository and config.
    await withEnv({
      GIT_DIR: path.join(ws, '.git'),
      GIT_WORK_TREE: ws,
      GIT_INDEX_FILE: path.join(ws, '.git', 'index'),
      GIT_OBJECT_DIRECTORY: path.join(ws, '.git', 'objects'),
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.hooksPath',
      GIT_CONFIG_VALUE_0: path.dirname(trapScript),
      HOME: home,
    }, () => exercise(ws, dirs.make('state')));

    assert.deepEqual(fingerprintDiff(gitBefore, fingerprint(path.join(ws, '.git'))), []);
    assert.equal(fs.existsSync(marker), false, 'a hook, fsmonitor or filter of the user ran');
    assert.deepEqual(lockFiles(ws), []);
    assert.equal(git(ws, ['stash', 'list']), stashBefore);
    assert.equal(fs.readFileSync(path.join(ws, 'src/app.js'), 'utf8'), 'unstaged\n');
    assert.equal(fs.existsSync(path.join(ws, 'created.js')), false);
  });

  it('leaves a repository in the middle of a merge exactly as it was', async () => {
    const ws = dirs.make('ws');
    git(ws, ['init', '-q', '-b', 'main']);
    write(ws, 'f.txt', 'base\n');
    git(ws, ['add', '.']);
    git(ws, ['commit', '-qm', 'base']);
    git(ws, ['checkout', '-qb', 'other']);
    write(ws, 'f.txt', 'other\n');
    git(ws, ['commit', '-qam', 'other']);
    git(ws, ['checkout', '-q', 'main']);
    write(ws, 'f.txt', 'mine\n');
    git(ws, ['commit', '-qam', 'mine']);
    assert.throws(() => git(ws, ['merge', 'other']));
    assert.ok(fs.existsSync(path.join(ws, '.git', 'MERGE_HEAD')));
    const before = fingerprint(ws);

    await exercise(ws, dirs.make('state'));
    assert.deepEqual(fingerprintDiff(before, fingerprint(ws)), []);
    assert.deepEqual(lockFiles(ws), []);
  });

  it('leaves a repository in the middle of a rebase exactly as it was', async () => {
    const ws = dirs.make('ws');
    git(ws, ['init', '-q', '-b', 'main']);
    write(ws, 'src/app.js', 'base\n');
    git(ws, ['add', '.']);
    git(ws, ['commit', '-qm', 'base']);
    git(ws, ['checkout', '-qb', 'topic']);
    write(ws, 'src/app.js', 'topic\n');
    git(ws, ['commit', '-qam', 'topic']);
    git(ws, ['checkout', '-q', 'main']);
    write(ws, 'src/app.js', 'main\n');
    git(ws, ['commit', '-qam', 'main']);
    git(ws, ['checkout', '-q', 'topic']);
    assert.throws(() => git(ws, ['rebase', 'main']));
    assert.ok(fs.existsSync(path.join(ws, '.git', 'rebase-merge')));
    const before = fingerprint(ws);

    await exercise(ws, dirs.make('state'));
    assert.deepEqual(fingerprintDiff(before, fingerprint(ws)), []);
    assert.deepEqual(lockFiles(ws), []);
  });
});
