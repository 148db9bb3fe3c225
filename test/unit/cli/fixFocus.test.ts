// `greenloop fix --focus TEST_ID`: a loop scoped to some failing tests, through the real CLI and a scripted model on
// the calc fixture (add() subtracts, mul() adds; neg() is right). Its witness is the focused tests; a regression
// anywhere in the suite still counts.
import * as assert from 'assert';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { answer, BREAK_NEG, FIX_ADD, FIX_MUL } from '../../support/calcAnswers';

describe('greenloop fix --focus (real CLI)', function () {
  this.timeout(120_000);
  let h: FixHarness;
  beforeEach(async () => {
    h = await fixHarness('calc');
  });
  afterEach(async () => {
    await h.close();
  });

  it('ends green once the focused test passes, though another test still fails as it did at the start', async () => {
    const res = await h.fix([answer(FIX_ADD), answer(FIX_MUL)], ['--focus', 'calc > adds']);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(res.report.outcome, 'green');
    assert.deepStrictEqual(res.report.iterations.map((i: any) => i.verdict), ['green']);
    assert.deepStrictEqual(res.report.iterations[0].failing, ['calc > multiplies']);
    assert.strictEqual(h.server.requests.length, 1, 'no second attempt for the test outside the focus');
    assert.match(h.read('src/calc.js'), /return a \+ b;\n\}\n*function mul\(a, b\) \{\n  return a \+ b;/);
    assert.match(h.prompt(0), /## Goal of this run\nMake this test pass:\n- calc > adds\n/);
  });

  it('rolls back an edit that breaks a passing test outside the focus, then goes green on the focused fix', async () => {
    const res = await h.fix([answer(BREAK_NEG), answer(FIX_ADD)], ['--focus', 'calc > adds', '--patience', '3', '--verify-scope', 'full']);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.deepStrictEqual(res.report.iterations.map((i: any) => [i.verdict, i.rolledBack]), [['regression', true], ['green', false]]);
    assert.match(h.read('src/calc.js'), /function neg\(a\) \{\n  return -a;/, 'the broken negation was rolled back');
  });

  it('failing tests first: the break outside the focus is found by the fix\'s whole-suite run, and the fix is kept alone @heavy', async () => {
    const res = await h.fix([answer(BREAK_NEG), answer(FIX_ADD)], ['--focus', 'calc > adds', '--patience', '3']);
    assert.strictEqual(res.code, 0, res.stderr);
    // BREAK_NEG is judged by the failing tests alone (kept, no progress); FIX_ADD's whole run sees `negates` broken,
    // so FIX_ADD is judged again on the best state without BREAK_NEG: green.
    assert.deepStrictEqual(res.report.iterations.map((i: any) => [i.verdict, i.rolledBack]), [['no-progress', false], ['green', false]]);
    assert.match(h.read('src/calc.js'), /function neg\(a\) \{\n  return -a;/, 'the broken negation is gone');
    assert.match(h.read('src/calc.js'), /return a \+ b;/, 'the focused fix is kept');
  });

  it('fixing only a test outside the focus is no progress', async () => {
    const res = await h.fix([answer(FIX_MUL), answer(FIX_ADD)], ['--focus', 'calc > adds', '--patience', '3']);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.deepStrictEqual(res.report.iterations.map((i: any) => i.verdict), ['no-progress', 'green']);
  });

  it('refuses a focus that is not a failing test with one sentence (exit 2) before asking the model', async () => {
    const res = await h.fix([answer(FIX_ADD)], ['--focus', 'calc > adds', '--focus', 'calc > negates']);
    assert.strictEqual(res.code, 2, res.stderr);
    const lines = res.stderr.trim().split('\n').filter((l) => !l.startsWith('greenloop: verifying'));
    assert.strictEqual(lines.length, 1, res.stderr);
    assert.match(lines[0], /The focus `calc > negates` is not a failing test in this workspace \(failing now: `calc > adds`, `calc > multiplies`\)\./);
    assert.strictEqual(h.server.requests.length, 0);
    assert.match(h.read('src/calc.js'), /return a - b;/, 'nothing was changed');
  });

  it('refuses --focus on a resumed run, which keeps the focus it started with', async () => {
    const res = await h.fix([], ['--resume', 'last', '--hint', 'h', '--focus', 'calc > adds']);
    assert.strictEqual(res.code, 2, res.stderr);
    assert.strictEqual(res.stderr.trim(), 'greenloop: --focus is not used with --resume: a resumed run keeps the focus it started with.');
  });
});
