// Greenloop's own state (snapshot store, run journal, saved runs) misplaced, damaged or deleted: every case ends in
// one sentence and a report, with the person's workspace untouched or restored (issue 10, item 10).
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { fixHarness, type FixHarness, type FixResult } from '../support/fixHarness';
import { answer, BREAK_NEG, FIX_ADD, FIX_MUL } from '../../support/calcAnswers';

const CALC = 'src/calc.js';

/** The one line a setup failure prints, and the report a --json caller still gets. */
function assertSetupFailure(r: FixResult, sentence: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  // Progress ("verifying …") may come first; the failure itself is one line.
  const lines = r.stderr.trim().split('\n').filter((l) => !l.includes('warning:') && !l.startsWith('greenloop: verifying'));
  assert.equal(lines.length, 1, `one line, got:\n${r.stderr}`);
  assert.match(lines[0], /^greenloop: /);
  assert.match(lines[0], sentence);
  assert.ok(r.report, `a --json report on stdout, got: ${r.stdout}`);
  assert.equal(r.report.outcome, 'error');
  assert.match(r.report.reasonText, sentence);
  assert.equal(r.report.llmCalls, 0);
}

function gitStatus(dir: string): string {
  return execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: dir, encoding: 'utf8' });
}

describe('greenloop fix with its state misplaced, damaged or deleted (real CLI)', function () {
  this.timeout(120_000);
  let h: FixHarness;
  beforeEach(async () => {
    h = await fixHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('a state folder that is a file, or that cannot be written, stops in one sentence with a report and nothing changed', async () => {
    const before = h.read(CALC);
    const file = path.join(h.stateDir, 'not-a-folder');
    fs.writeFileSync(file, 'x');
    const r = await h.fix([answer(FIX_ADD)], ['--state-dir', file]);
    assertSetupFailure(r, /The state folder .*not-a-folder cannot be used \(a file is in the way where a folder should be\); pass --state-dir/);
    assert.equal(h.server.requests.length, 0, 'no model call');
    assert.equal(h.read(CALC), before);

    // /sys refuses new folders even to root: the permission case, where this machine can show it.
    const denied = '/sys/greenloop-state-test';
    let canCreate = true;
    try {
      fs.mkdirSync(denied);
      fs.rmdirSync(denied);
    } catch {
      canCreate = false;
    }
    if (process.platform !== 'linux' || canCreate) return;
    const r2 = await h.fix([answer(FIX_ADD)], ['--state-dir', denied]);
    assertSetupFailure(r2, /cannot be used \((permission denied|the file system is read-only)\)/);
  });

  it('a state folder inside the workspace is never snapshotted, never seen as a change, and hidden from the person\'s git', async () => {
    // Brackets and a space: a name that would be a wildcard if written into an ignore file unescaped.
    const inside = path.join(h.project, '.gl [state]');
    const r = await h.fix([answer(FIX_ADD), answer(FIX_MUL)], ['--state-dir', inside]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.report.outcome, 'green');
    assert.equal(r.report.iterations.length, 2);
    assert.deepEqual(r.report.iterations.map((it: { files: string[] }) => it.files), [[CALC], [CALC]]);
    assert.ok(fs.existsSync(path.join(inside, 'snapshots')), 'the store lives where it was told');
    assert.equal(gitStatus(h.project).trim(), `M ${CALC}`, 'the person\'s git sees the fix, not the state folder');

    // A second run on the same folder finds its store again and is not disturbed by it.
    h.write(CALC, h.read(CALC).replace('return a + b;', 'return a - b;'));
    const r2 = await h.fix([answer(FIX_ADD)], ['--state-dir', inside]);
    assert.equal(r2.code, 0, r2.stderr);
    assert.equal(r2.report.outcome, 'green');
  });

  it('a saved run of the wrong shape, unreadable, or whose snapshots are gone is refused in one sentence when resumed', async () => {
    const first = await h.fix([answer(BREAK_NEG)], ['--max-iterations', '1']);
    assert.equal(first.code, 1, first.stderr);
    const afterFirst = h.read(CALC);
    const runsDir = path.join(h.stateDir, 'runs');
    const saved = path.join(runsDir, fs.readdirSync(runsDir)[0], `${first.report.runId}.json`);
    const good = fs.readFileSync(saved, 'utf8');

    fs.writeFileSync(saved, JSON.stringify({ runId: first.report.runId, config: {} }));
    const shape = await h.fix([answer(FIX_ADD)], ['--resume', 'last', '--hint', 'look at add()']);
    assertSetupFailure(shape, /The saved state of run \S+ is not a Greenloop run \("cwd" is missing\), so it cannot be resumed; start a new run instead\./);

    fs.writeFileSync(saved, '[1,2');
    const garbage = await h.fix([answer(FIX_ADD)], ['--resume', 'last', '--hint', 'look at add()']);
    assertSetupFailure(garbage, /The saved state of run \S+ is unreadable \(.*\), so it cannot be resumed/);

    fs.writeFileSync(saved, good);
    const snapshots = path.join(h.stateDir, 'snapshots');
    fs.renameSync(snapshots, `${snapshots}-elsewhere`);
    const gone = await h.fix([answer(FIX_ADD)], ['--resume', 'last', '--hint', 'look at add()']);
    assertSetupFailure(gone, /The snapshots of run \S+ are no longer in the store \(moved aside or deleted\), so it cannot be resumed/);
    assert.equal(h.server.requests.length, 1, 'only the first run asked the model');
    assert.equal(h.read(CALC), afterFirst);
  });

  it('a state folder deleted while a regressing edit is tested: the edit is undone anyway and the report says where the workspace is', async () => {
    const before = h.read(CALC);
    const mark = `${h.stateDir}-tested-once`;
    // The second test run (the one judging the edit) deletes Greenloop's whole state folder first.
    const testCmd = `sh -c 'if [ -f "${mark}" ]; then rm -rf "${h.stateDir}"; fi; touch "${mark}"; exec node --test test/'`;
    const r = await h.fix([answer(BREAK_NEG), answer(FIX_ADD)], ['--test-cmd', testCmd]);
    fs.rmSync(mark, { force: true });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.report.outcome, 'escalated');
    assert.match(r.report.reasonText, /^The state folder .* disappeared while the run was on .* attempt 1's edit was undone from memory \(src\/calc\.js\), so the workspace is as it was before that attempt; start a new run to go on\.$/);
    assert.equal(h.read(CALC), before, 'the regression is not left behind');
    assert.equal(r.report.final.state, 'last');
    assert.deepEqual(r.report.final.failing, r.report.baseline.failing, 'the report describes the workspace as it is');
    assert.equal(r.report.iterations[0].rolledBack, true);
    assert.equal(h.server.requests.length, 1, 'no second attempt without a store');
  });

  it('a state folder deleted during the first test run: one sentence, a report, nothing changed', async () => {
    const before = h.read(CALC);
    const testCmd = `sh -c 'rm -rf "${h.stateDir}"; exec node --test test/'`;
    const r = await h.fix([answer(FIX_ADD)], ['--test-cmd', testCmd]);
    assertSetupFailure(r, /The state folder .* disappeared while the run was on .*; nothing was changed\./);
    assert.equal(h.server.requests.length, 0);
    assert.equal(h.read(CALC), before);
  });
});
