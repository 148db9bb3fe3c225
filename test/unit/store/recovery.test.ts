// The next start after a killed run: real store, real journal file, a dead process as the journal's owner.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { blobId } from '../../../src/base/blobId';
import { journalFileFor, type JournalRecord } from '../../../src/store/runJournal';
import { type WriteIntent } from '../../../src/ports/journal';
import { openWorkspace } from '../../../src/session/openWorkspace';
import { shadowDirFor } from '../../../src/base/stateDir';
import { tempDirs, write } from '../snapshot/support';

/** A pid that certainly belonged to a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

function plantDeadRun(stateDir: string, ws: string, intent: WriteIntent | null, pid = deadPid(), kept: WriteIntent | null = null): number {
  const record: JournalRecord = {
    version: 1, runId: 'dead-run', workspace: ws, startedAt: new Date().toISOString(), intent, kept,
    owner: { pid, startTime: null, host: os.hostname() },
  };
  const file = journalFileFor(stateDir, ws);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(record));
  return pid;
}

const read = (ws: string, rel: string) => fs.readFileSync(path.join(ws, rel), 'utf8');

describe('snapshot store: the next start recovers a killed run', () => {
  const dirs = tempDirs();
  afterEach(() => dirs.cleanup());
  const open = (ws: string, stateDir: string, warnings: string[] = []) =>
    openWorkspace({ workspace: ws, stateDir, runId: `r${Date.now()}`, onWarning: (m) => warnings.push(m) });

  it('puts back only what a half-applied edit wrote, removes its temp files, and keeps what a person changed since', async () => {
    const ws = dirs.make('ws');
    const stateDir = dirs.make('state');
    for (const f of ['a', 'b', 'c']) write(ws, `src/${f}.js`, `${f}1\n`);
    write(ws, 'NOTES.md', 'mine\n');
    const first = await open(ws, stateDir);
    const before = await first.snapshots.snapshot('before attempt 1');
    await first.journal.release();

    // Killed in the middle of renaming: a.js is written, b.js is still a temp file, c.js a person rewrote since.
    const paths = ['a', 'b', 'c', 'd'].map((f) => ({ path: `src/${f}.js`, before: f === 'd' ? null : blobId(`${f}1\n`), after: blobId(`${f}2\n`) }));
    const pid = plantDeadRun(stateDir, ws, { kind: 'apply', attempt: 1, returnTo: before.id, paths, artifacts: [] });
    write(ws, 'src/a.js', 'a2\n');
    write(ws, `src/.b.js.greenloop-${pid}-0badf00d`, 'b2\n');
    write(ws, 'src/c.js', 'the person typed this\n');
    write(ws, 'src/d.js', 'd2\n');
    write(ws, 'NOTES.md', 'mine, edited after the crash\n');

    const next = await open(ws, stateDir);
    assert.ok(next.recovered);
    assert.match(next.recovered.sentence, /^The earlier run dead-run on this folder was interrupted while attempt 1 was being applied or tested: Greenloop put 2 files back as they were before that write; src\/c\.js changed since and was left as it is\.$/);
    assert.equal(read(ws, 'src/a.js'), 'a1\n');
    assert.equal(read(ws, 'src/b.js'), 'b1\n');
    assert.equal(read(ws, 'src/c.js'), 'the person typed this\n');
    assert.equal(fs.existsSync(path.join(ws, 'src/d.js')), false, 'a file the edit created goes');
    assert.equal(read(ws, 'NOTES.md'), 'mine, edited after the crash\n');
    assert.deepEqual(fs.readdirSync(path.join(ws, 'src')).sort(), ['a.js', 'b.js', 'c.js']);
    await next.journal.release();

    const third = await open(ws, stateDir);
    assert.equal(third.recovered, null, 'recovered once, then the folder is clean');
    await third.journal.release();
  });

  it('removes a file the killed edit wrote and hid from git in the same write (a .gitignore line naming it)', async () => {
    const ws = dirs.make('ws');
    const stateDir = dirs.make('state');
    write(ws, '.gitignore', 'node_modules/\n');
    write(ws, 'src/a.js', 'a1\n');
    const first = await open(ws, stateDir);
    const before = await first.snapshots.snapshot('before attempt 1');
    await first.journal.release();

    // Killed while the edit was tested: it created leftover.js and gen/out.js, and ignored both in .gitignore.
    const ignoring = 'node_modules/\nleftover.js\ngen/\n';
    const paths = [
      { path: 'leftover.js', before: null, after: blobId('x\n') },
      { path: 'gen/out.js', before: null, after: blobId('y\n') },
      { path: '.gitignore', before: blobId('node_modules/\n'), after: blobId(ignoring) },
    ];
    plantDeadRun(stateDir, ws, { kind: 'apply', attempt: 1, returnTo: before.id, paths, artifacts: [] });
    write(ws, 'leftover.js', 'x\n');
    write(ws, 'gen/out.js', 'y\n');
    write(ws, '.gitignore', ignoring);

    const next = await open(ws, stateDir);
    assert.match(next.recovered!.sentence, /Greenloop put 3 files back as they were before that write\.$/);
    assert.equal(fs.existsSync(path.join(ws, 'leftover.js')), false);
    assert.equal(fs.existsSync(path.join(ws, 'gen')), false);
    assert.equal(read(ws, '.gitignore'), 'node_modules/\n');
    await next.journal.release();
  });

  it('finishes a rollback that was killed half way', async () => {
    const ws = dirs.make('ws');
    const stateDir = dirs.make('state');
    for (let i = 0; i < 20; i++) write(ws, `src/f${i}.js`, `good ${i}\n`);
    const first = await open(ws, stateDir);
    const best = await first.snapshots.snapshot('best');
    await first.journal.release();
    const paths = [];
    for (let i = 0; i < 20; i++) {
      paths.push({ path: `src/f${i}.js`, before: blobId(`bad ${i}\n`), after: blobId(`good ${i}\n`) });
      write(ws, `src/f${i}.js`, i < 7 ? `good ${i}\n` : `bad ${i}\n`); // the kill came after 7 files
    }
    plantDeadRun(stateDir, ws, { kind: 'restore', attempt: 2, returnTo: best.id, paths, artifacts: [] });

    const next = await open(ws, stateDir);
    assert.match(next.recovered!.sentence, /while rolling back after attempt 2: Greenloop put 13 files back/);
    for (let i = 0; i < 20; i++) assert.equal(read(ws, `src/f${i}.js`), `good ${i}\n`);
    await next.journal.release();
  });

  it('puts back what the loop kept beyond its best state, after what was being written, and leaves a person\'s later edit', async () => {
    // Attempt 1 was judged by the failing tests alone and kept in the workspace (a.js, b.js, c.js beyond the best
    // state); attempt 2 was being written (b.js again, d.js) when the run died. Found by the kill campaign: the next
    // start said "between attempts" and left attempt 1's edits to the person.
    const ws = dirs.make('ws');
    const stateDir = dirs.make('state');
    for (const f of ['a', 'b', 'c', 'd']) write(ws, `src/${f}.js`, `${f}0\n`);
    const first = await open(ws, stateDir);
    const best = await first.snapshots.snapshot('best');
    for (const f of ['a', 'b', 'c']) write(ws, `src/${f}.js`, `${f}1\n`);
    const current = await first.snapshots.snapshot('attempt 1, kept');
    await first.journal.release();

    const kept: WriteIntent = { kind: 'kept', attempt: 1, returnTo: best.id, artifacts: [], paths: ['a', 'b', 'c'].map((f) => ({ path: `src/${f}.js`, before: blobId(`${f}1\n`), after: blobId(`${f}1\n`) })) };
    const writing: WriteIntent = { kind: 'apply', attempt: 2, returnTo: current.id, artifacts: [], paths: [{ path: 'src/b.js', before: blobId('b1\n'), after: blobId('b2\n') }, { path: 'src/d.js', before: blobId('d0\n'), after: blobId('d2\n') }] };
    plantDeadRun(stateDir, ws, writing, deadPid(), kept);
    write(ws, 'src/b.js', 'b2\n');
    write(ws, 'src/d.js', 'd2\n');
    write(ws, 'src/c.js', 'the person typed this\n');

    const next = await open(ws, stateDir);
    assert.ok(next.recovered);
    assert.match(next.recovered.sentence, /while attempt 2 was being applied or tested: Greenloop put 2 files back as they were before that write\. Besides, it was interrupted after attempt 1, with edits beyond its best state in the workspace: Greenloop put 2 files back to the run's best state, as the run would have at its end; src\/c\.js changed since and was left as it is\.$/);
    assert.deepEqual(['a', 'b', 'd'].map((f) => read(ws, `src/${f}.js`)), ['a0\n', 'b0\n', 'd0\n'], 'the best state');
    assert.equal(read(ws, 'src/c.js'), 'the person typed this\n');
    await next.journal.release();
  });

  it('says a run died between attempts, and that an agent attempt\'s changes were left for the person', async () => {
    const ws = dirs.make('ws');
    const stateDir = dirs.make('state');
    write(ws, 'a.js', '1\n');
    const first = await open(ws, stateDir);
    const snap = await first.snapshots.snapshot('before agent');
    await first.journal.release();

    plantDeadRun(stateDir, ws, null);
    const quiet = await open(ws, stateDir);
    assert.match(quiet.recovered!.sentence, /interrupted between attempts; the workspace is as it left it/);
    await quiet.journal.release();

    plantDeadRun(stateDir, ws, { kind: 'agent', attempt: 3, returnTo: snap.id, paths: [], artifacts: [] });
    write(ws, 'a.js', 'agent or person\n');
    const agent = await open(ws, stateDir);
    assert.match(agent.recovered!.sentence, /while an agent worked on attempt 3; a\.js changed since that attempt began and was left as it is \(the agent's changes or yours\)\.$/);
    assert.equal(read(ws, 'a.js'), 'agent or person\n');
    await agent.journal.release();
  });

  it('refuses a second run on a folder while the first one lives, in one sentence, and leaves its journal alone', async () => {
    const ws = dirs.make('ws');
    const stateDir = dirs.make('state');
    const first = await open(ws, stateDir);
    const file = journalFileFor(stateDir, ws);
    const held = fs.readFileSync(file, 'utf8');
    await assert.rejects(open(ws, stateDir), (err: Error) => {
      assert.match(err.message, /^Greenloop is already running on this folder \(run r\d+, process \d+ on .*\); stop it first, or delete .* if no run is going on\.$/);
      return true;
    });
    assert.equal(fs.readFileSync(file, 'utf8'), held);
    await first.journal.release();
    assert.equal(fs.existsSync(file), false);
    (await open(ws, stateDir)).journal.release();
  });

  it('removes the store\'s locks at once when the run that held them is dead, and says so', async () => {
    const ws = dirs.make('ws');
    const stateDir = dirs.make('state');
    write(ws, 'a.js', '1\n');
    const first = await open(ws, stateDir);
    await first.snapshots.snapshot('one');
    await first.journal.release();
    const store = shadowDirFor(stateDir, ws);
    fs.writeFileSync(path.join(store, 'greenloop.index.lock'), '');
    fs.mkdirSync(path.join(store, 'refs', 'greenloop', 'dead-run'), { recursive: true });
    fs.writeFileSync(path.join(store, 'refs', 'greenloop', 'dead-run', '4.lock'), '');
    plantDeadRun(stateDir, ws, null);

    const warnings: string[] = [];
    const next = await open(ws, stateDir, warnings);
    assert.deepEqual(warnings, ['Removed 2 stale locks left in the snapshot store by an interrupted run (greenloop.index.lock, refs/greenloop/dead-run/4.lock).']);
    write(ws, 'a.js', '2\n');
    await next.snapshots.snapshot('works again');
    await next.journal.release();
  });
});
