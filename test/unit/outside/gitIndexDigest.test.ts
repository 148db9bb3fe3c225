// What the index stages, read from the file itself: the same whatever the index format or the stat data git status
// rewrites, different once something is staged or flagged. Real git writes every index read here.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { stagedDigest } from '../../../src/outside/gitIndexDigest';
import { tempProject } from '../support/cli';

describe('stagedDigest (the staged entries of a git index)', () => {
  let project: string;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: project, stdio: 'pipe' });
  const digest = () => stagedDigest(fs.readFileSync(path.join(project, '.git', 'index')), 20);
  beforeEach(() => {
    project = tempProject('calc');
  });
  afterEach(() => fs.rmSync(project, { recursive: true, force: true }));

  it('is the same in index formats 2, 3 and 4 (path compression) and after git status refreshes stat data', () => {
    const first = digest();
    assert.match(first ?? '', /^[0-9a-f]{64}$/);
    for (const version of ['4', '3', '2']) {
      git('update-index', '--index-version', version);
      assert.strictEqual(digest(), first, `format ${version}`);
    }
    const future = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(project, 'src', 'calc.js'), future, future);
    git('update-index', '--index-version', '4');
    git('status', '--porcelain');
    assert.strictEqual(digest(), first);
  });

  it('changes with git add, git rm --cached and skip-worktree; an unknown file gives null', () => {
    const first = digest();
    fs.appendFileSync(path.join(project, 'src', 'calc.js'), '// more\n');
    git('add', 'src/calc.js');
    const added = digest();
    assert.notStrictEqual(added, first);
    git('update-index', '--skip-worktree', 'package.json');
    assert.notStrictEqual(digest(), added);
    git('update-index', '--no-skip-worktree', 'package.json');
    assert.strictEqual(digest(), added);
    git('rm', '-q', '--cached', 'package.json');
    assert.notStrictEqual(digest(), added);
    assert.strictEqual(stagedDigest(Buffer.from('not an index'), 20), null);
  });
});
