// `greenloop hook claude-stop` fed the events Claude Code sends (shape from its hooks reference: session_id,
// transcript_path, cwd, hook_event_name, stop_hook_active) across a whole scripted session on a real git repo: the
// agent's edits between stops are judged like loop attempts, and the answers say block or let it stop.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { runCli, tempDir, tempProject } from '../support/cli';
import { directTestCommand } from '../support/fixHarness';

const FIXED_ADD = (src: string) => src.replace('return a - b;', 'return a + b;');
const FIXED_MUL = (src: string) => src.replace('function mul(a, b) {\n  return a + b;', 'function mul(a, b) {\n  return a * b;');
const BROKEN_NEG = (src: string) => src.replace('return -a;', 'return a;');

describe('greenloop hook claude-stop (a Claude Code Stop hook)', function () {
  this.timeout(120_000);
  let project: string;
  let stateDir: string;
  const sessionId = 'c0ffee00-1111-2222-3333-444455556666';

  beforeEach(() => {
    project = tempProject('calc');
    stateDir = tempDir('state');
  });
  afterEach(() => fs.rmSync(project, { recursive: true, force: true }));

  const calc = () => path.join(project, 'src', 'calc.js');
  const edit = (change: (s: string) => string) => fs.writeFileSync(calc(), change(fs.readFileSync(calc(), 'utf8')));
  async function event(name: string, extra: string[] = [], fields: object = {}) {
    const input = JSON.stringify({
      session_id: sessionId, transcript_path: path.join(stateDir, 'transcript.jsonl'), cwd: project, permission_mode: 'acceptEdits',
      hook_event_name: name, stop_hook_active: name === 'Stop', ...fields,
    });
    const res = await runCli(['hook', 'claude-stop', '--tsc', 'off', '--state-dir', stateDir, ...directTestCommand(project), ...extra], { input });
    return { ...res, out: res.stdout.trim() ? JSON.parse(res.stdout) : null };
  }

  it('blocks while tests fail and progress is made, rolls back a regression, and lets the agent stop when green', async () => {
    const start = await event('SessionStart');
    assert.deepEqual(start.out, {}, start.stderr);

    edit(FIXED_ADD);
    const first = await event('Stop');
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.out.decision, 'block');
    assert.match(first.out.reason, /CONTINUE: check 1 of 8/);
    assert.match(first.out.reason, /Verdict: progress — fixed `calc > adds`/);
    assert.match(first.out.reason, /Failing now: 1 \(2 at the start, 1 at best\): `calc > multiplies`/);

    edit(BROKEN_NEG);
    const second = await event('Stop');
    assert.equal(second.out.decision, 'block');
    assert.match(second.out.reason, /Verdict: regression — broke `calc > negates`/);
    assert.match(second.out.reason, /Rolled back: src\/calc\.js/);
    assert.match(fs.readFileSync(calc(), 'utf8'), /return -a;/, 'the regression is undone on disk');
    assert.match(fs.readFileSync(calc(), 'utf8'), /return a \+ b;/, 'the progress is kept');

    edit(FIXED_MUL);
    const last = await event('Stop');
    assert.equal(last.out.decision, undefined, 'the agent may stop');
    assert.match(last.out.systemMessage, /Greenloop: all tests pass/);
    // Run with --tsc off: nothing was type checked, so nothing says it was.
    assert.strictEqual(last.out.systemMessage, 'Greenloop: all tests pass.');
  });

  it('lets the agent stop after patience checks without progress, and leaves the best state', async () => {
    await event('SessionStart');
    edit(FIXED_ADD);
    assert.equal((await event('Stop')).out.decision, 'block');
    edit((s) => `${s}\n// maybe this helps\n`);
    const noProgress = await event('Stop');
    assert.equal(noProgress.out.decision, 'block');
    assert.match(noProgress.out.reason, /1 of 2 allowed without progress/);
    const gaveUp = await event('Stop');
    assert.equal(gaveUp.out.decision, undefined);
    assert.match(gaveUp.out.systemMessage, /stopped \(stagnation\)/);
    assert.match(gaveUp.out.systemMessage, /best state \(1 failing, 2 at the start\)/);
    // Once stopped, the session answers the same without running the tests again.
    const again = await event('Stop');
    assert.deepEqual(again.out, gaveUp.out);
  });

  it('puts back a weakened test and keeps the agent\'s real fix in the same check', async () => {
    await event('SessionStart');
    edit(FIXED_ADD);
    const test = path.join(project, 'test', 'calc.test.js');
    const original = fs.readFileSync(test, 'utf8');
    fs.writeFileSync(test, original.replace('assert.equal(mul(2, 3), 6)', 'assert.ok(true)'));
    const answer = await event('Stop');
    assert.equal(answer.out.decision, 'block');
    assert.match(answer.out.reason, /put back your changes to `?test\/calc\.test\.js`?/);
    assert.equal(fs.readFileSync(test, 'utf8'), original);
    assert.match(fs.readFileSync(calc(), 'utf8'), /return a \+ b;/);
  });

  it('exits 1 with one sentence on a bad event (exit 2 would block the agent with it)', async () => {
    const res = await runCli(['hook', 'claude-stop', '--state-dir', stateDir], { input: 'not json' });
    assert.equal(res.code, 1);
    assert.equal(res.stderr.trim(), 'greenloop: The hook event on stdin is not a JSON object; run this command as a Claude Code hook (it sends the event as JSON).');
    const wrong = await event('PreToolUse');
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /handles Stop \(and SessionStart\) events, not "PreToolUse"/);
  });
});
