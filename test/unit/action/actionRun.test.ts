// The action's entry point end to end in a simulated Actions job: what a person sees in the summary, the outputs the
// next steps read, the annotations, the patch they download, and that the model key is nowhere it should not be.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { actionHarness, filesUnder, MODEL_KEY } from './actionHarness';
import type { ActionHarness } from './actionHarness';
import { answer, COMMENT, FIX_ADD, FIX_MUL } from '../../support/calcAnswers';

/** Lines of a log that carry the key: only the ::add-mask:: commands that tell GitHub to hide it may. */
function keyLines(log: string): string[] {
  return log.split('\n').filter((l) => l.includes(MODEL_KEY) && !l.startsWith('::add-mask::'));
}

describe('the GitHub Action, run as a runner runs it (dist/action.js)', function () {
  this.timeout(180_000);
  let h: ActionHarness;
  beforeEach(async () => {
    h = await actionHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('fixes the failing build and hands back a summary, outputs, annotations and a patch that applies on the checked-out commit', async () => {
    const res = await h.run([answer(FIX_ADD), answer(FIX_MUL)]);
    assert.strictEqual(res.code, 0, res.stderr);

    // Outputs the next steps read.
    const { outputs } = res;
    assert.strictEqual(outputs.outcome, 'green');
    assert.strictEqual(outputs.reason, '');
    assert.strictEqual(outputs.attempts, '2');
    assert.strictEqual(outputs['failing-before'], '2');
    assert.strictEqual(outputs['failing-after'], '0');
    assert.ok(fs.existsSync(outputs['report-path']), 'the report is a file for upload-artifact');
    assert.strictEqual(JSON.parse(fs.readFileSync(outputs['report-path'], 'utf8')).outcome, 'green');
    assert.match(outputs['patch-path'], /report\.patch$/);

    // The job summary a person reads.
    assert.match(res.summary, /## ✅ Greenloop: green/);
    assert.match(res.summary, /Failing before → after:<\/b> 2 failing → 0 failing/);
    const rows = res.summary.match(/<tr><td>\d+<\/td>.*<\/tr>/g) ?? [];
    assert.strictEqual(rows.length, 2, 'one row per attempt');
    assert.match(rows[0], /<td>1<\/td><td>progress<\/td><td>1 failing<\/td><td><code>src\/calc\.js<\/code><\/td><td><code>.+<\/code><\/td>/);
    assert.match(rows[1], /<td>2<\/td><td>green<\/td><td>0 failing<\/td>/);
    assert.match(res.summary, /Budget spent:<\/b> 2 of 8 attempts · 2,560 of 200,000 tokens · 2 model calls · \d+\.\d of 30 min/);
    assert.match(res.summary, /<details><summary>The patch: 1 file changed, \+2 −2<\/summary>\n\n```diff\n/);
    assert.match(res.summary, /-  return a - b;\n\+  return a \+ b;/);

    // Annotations and grouped progress in the log.
    assert.match(res.stderr, /^::notice title=Greenloop%3A green::The tests pass after 2 attempts/m);
    assert.match(res.stderr, /^::group::Greenloop attempt 1\/8$/m);
    assert.match(res.stderr, /^::group::Greenloop attempt 2\/8$/m);
    assert.strictEqual((res.stderr.match(/^::group::/gm) ?? []).length, (res.stderr.match(/^::endgroup::$/gm) ?? []).length, 'every group is closed');
    assert.match(res.stderr, /::endgroup::\ngreenloop: attempt 1: progress/, 'the verdict line sits outside the collapsed group');

    // The patch applies with `git apply` on the original commit, and gives the fixed files.
    const clone = path.join(h.scratch, 'fresh');
    execFileSync('git', ['clone', '-q', h.origin, clone]);
    assert.strictEqual(execFileSync('git', ['rev-parse', 'HEAD'], { cwd: clone, encoding: 'utf8' }).trim(), h.sha);
    execFileSync('git', ['apply', '--check', outputs['patch-path']], { cwd: clone });
    execFileSync('git', ['apply', outputs['patch-path']], { cwd: clone });
    assert.strictEqual(fs.readFileSync(path.join(clone, 'src/calc.js'), 'utf8'), h.git('show', ':src/calc.js').replace('return a - b', 'return a + b').replace('return a + b;\n}\n\nfunction neg', 'return a * b;\n}\n\nfunction neg'));
    assert.deepStrictEqual(fs.readFileSync(path.join(clone, 'src/calc.js')), fs.readFileSync(path.join(h.project, 'src/calc.js')));
    execFileSync(process.execPath, ['--test', 'test/'], { cwd: clone, stdio: 'pipe' });

    // The person's own index and branch are as the checkout left them.
    assert.strictEqual(h.git('diff', '--cached', '--name-only'), '');
    assert.strictEqual(h.git('rev-parse', 'HEAD').trim(), h.sha);

    // The key: masked first, then in no file, no log line, and no request but the model's Authorization header.
    assert.match(res.stdout, new RegExp(`^::add-mask::${MODEL_KEY}$`, 'm'));
    assert.ok(res.stderr.indexOf(`::add-mask::${MODEL_KEY}`) < res.stderr.indexOf('::group::'), 'the CLI masks it before its first progress line');
    assert.deepStrictEqual(keyLines(res.stdout), []);
    assert.deepStrictEqual(keyLines(res.stderr), []);
    const files = { ...filesUnder(h.scratch), ...filesUnder(h.project) };
    const leaking = Object.entries(files).filter(([, bytes]) => bytes.includes(MODEL_KEY)).map(([f]) => f);
    assert.deepStrictEqual(leaking, []);
    for (const r of h.server.requests) {
      assert.ok(!r.rawBody.includes(MODEL_KEY), 'no request body carries the key');
      assert.strictEqual(r.headers.authorization, `Bearer ${MODEL_KEY}`);
    }
  });

  it('annotates each test still failing on its file and line when the loop escalates, and fails the step', async () => {
    const res = await h.run([answer(COMMENT('first look')), answer(COMMENT('second look'))], { patience: '2' });
    assert.strictEqual(res.code, 1, res.stderr);
    assert.strictEqual(res.outputs.outcome, 'escalated');
    assert.strictEqual(res.outputs.reason, 'stagnation');
    assert.strictEqual(res.outputs['failing-after'], '2');
    assert.match(res.summary, /## ⚠️ Greenloop: escalated \(stagnation\)/);
    assert.match(res.summary, /<p><b>Still failing:<\/b> 2 failing<\/p>/);
    assert.match(res.summary, /<li><code>calc &gt; adds<\/code><\/li>/);
    assert.match(res.stderr, /^::warning title=Greenloop escalated \(stagnation\)::/m);
    const adds = res.stderr.split('\n').find((l) => l.startsWith('::error') && l.includes('title=Failing test%3A calc > adds'));
    assert.ok(adds, res.stderr);
    assert.match(adds!, /file=test\/calc\.test\.js,line=7,col=\d+/);
    assert.match(adds!, /::calc > adds%0AAssertionError/);
    // Kept at the best state, which is the baseline here: no change, so the patch is empty.
    assert.strictEqual(fs.readFileSync(res.outputs['patch-path'], 'utf8'), '');
    assert.match(res.summary, /No patch: the workspace was left as it started\./);
  });

  it('asked for a pull request after a run that is not green, says in one sentence why it opened none', async () => {
    const res = await h.run([answer(COMMENT('one')), answer(COMMENT('two'))], { patience: '2', 'open-pull-request': 'true', 'github-token': 'ghs_unused' });
    assert.strictEqual(res.code, 1);
    assert.strictEqual(res.outputs['pull-request-url'], '');
    assert.strictEqual(res.outputs['pull-request-note'], 'No pull request was opened: the run ended escalated (stagnation), not green.');
    assert.match(res.summary, /<b>Pull request:<\/b> No pull request was opened: the run ended escalated \(stagnation\), not green\.<\/p>/);
  });

  it('a bad input is one sentence and exit 2, before anything runs', async () => {
    const res = await h.run([], { 'api-key-env': MODEL_KEY });
    assert.strictEqual(res.code, 2);
    assert.match(res.stdout, /::error::api-key-env takes the NAME of the environment variable that holds the key/);
    assert.strictEqual(h.server.requests.length, 0);
    const tooShort = await h.run([], { 'timeout-minutes': '2' });
    assert.strictEqual(tooShort.code, 2);
    assert.match(tooShort.stdout, /::error::timeout-minutes 2 leaves no time for the loop/);
  });

  it('a step whose timeout-minutes runs out while the model thinks still writes its summary, outputs, report and patch', async () => {
    // timeout-minutes 2.5: the loop's deadline is 0.5 min (2 minutes before the job's), the model's answer 10 minutes away.
    // Without the deadline the harness would kill the step at 150 s: no exit code, no outputs.
    const res = await h.run([answer(FIX_ADD, 600_000)], { 'timeout-minutes': '2.5' });
    assert.strictEqual(res.code, 1, res.stderr);
    assert.strictEqual(res.outputs.outcome, 'escalated');
    assert.strictEqual(res.outputs.reason, 'budget-time');
    assert.match(res.summary, /## ⚠️ Greenloop: escalated \(budget-time\)/);
    assert.match(res.summary, /of 0\.5 min/);
    assert.match(res.stderr, /^::warning title=Greenloop escalated \(budget-time\)::/m);
    const report = JSON.parse(fs.readFileSync(res.outputs['report-path'], 'utf8'));
    assert.strictEqual(report.reason, 'budget-time');
    assert.strictEqual(fs.readFileSync(res.outputs['patch-path'], 'utf8'), '', 'nothing was applied: an empty patch');
    assert.strictEqual(h.git('status', '--porcelain'), '', 'the workspace is back as it was');
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`a job cancelled while the model thinks (${signal}) leaves a report marked cancelled, a summary and outputs`, async () => {
      const { child, done } = h.start([answer(FIX_ADD, 120_000)]);
      // The request is in (its answer is 2 minutes away): the job is cancelled while the model thinks.
      while (h.server.requests.length === 0) await new Promise((r) => setTimeout(r, 100));
      child.kill(signal);
      const res = await done;
      assert.strictEqual(res.code, 1, res.stderr);
      assert.strictEqual(res.outputs.outcome, 'cancelled');
      assert.strictEqual(JSON.parse(fs.readFileSync(res.outputs['report-path'], 'utf8')).outcome, 'cancelled');
      assert.match(res.summary, /## ⏹️ Greenloop: cancelled/);
      assert.match(res.stderr, /^::warning title=Greenloop cancelled::/m);
      assert.strictEqual(h.git('status', '--porcelain'), '', 'the workspace is back as it was');
    });
  }
});
