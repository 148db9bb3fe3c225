// The progress witness as pure comparisons: what counts as progress, regression, missing and flaky.
import * as assert from 'assert';
import { isBetter, judge } from '../../../../src/core/judge/witnessCompare';
import type { WitnessSummary } from '../../../../src/ports/runState';
import type { Diagnostic } from '../../../../src/ports/verifier';

function w(failing: string[], more: Partial<WitnessSummary> = {}): WitnessSummary {
  return {
    failing, failures: failing.map((id) => ({ id, message: '' })), diagnostics: [], loadError: false, green: false, signature: '',
    exitCode: failing.length ? 1 : 0, timedOut: false, outputExcerpt: '', ran: null, skipped: [], ranCount: null, executed: null, warnings: [],
    ...more,
  };
}
const ts2322 = (line: number): Diagnostic => ({ file: 'src/a.ts', line, column: 3, code: 'TS2322', message: "Type 'string' is not assignable to type 'number'." });
const ALL = ['s > a', 's > b', 's > c', 's > d'];

describe('judge: the progress witness', () => {
  it('a second identical type error on another line is growth, not "the same error"', () => {
    const j = judge(w([], { diagnostics: [ts2322(3)] }), w([], { diagnostics: [ts2322(3), ts2322(9)] }));
    assert.strictEqual(j.verdict, 'regression');
    assert.match(j.note, /2× now, 1× before/);
  });

  it('one fewer of two identical type errors is progress', () => {
    const j = judge(w([], { diagnostics: [ts2322(3), ts2322(9)] }), w([], { diagnostics: [ts2322(12)] }));
    assert.strictEqual(j.verdict, 'progress');
  });

  it('the same error moved to another line is no progress', () => {
    assert.strictEqual(judge(w(['s > a'], { diagnostics: [ts2322(3)] }), w(['s > a'], { diagnostics: [ts2322(30)] })).verdict, 'no-progress');
  });

  it('a failing test that is no longer reported is missing, not fixed', () => {
    const best = w(['s > a', 's > b'], { ran: ALL });
    const j = judge(best, w(['s > b'], { ran: ['s > b', 's > c', 's > d'] }));
    assert.strictEqual(j.verdict, 'regression');
    assert.deepStrictEqual(j.missing, ['s > a']);
  });

  it('a passing test that is no longer reported is missing too, even when the rest is green', () => {
    const j = judge(w(['s > a'], { ran: ALL }), w([], { ran: ['s > a', 's > b', 's > c'], green: true }));
    assert.strictEqual(j.verdict, 'regression');
    assert.deepStrictEqual(j.missing, ['s > d']);
  });

  it('a test that ran and is now only skipped is missing', () => {
    const j = judge(w(['s > a'], { ran: ALL }), w([], { ran: ALL, skipped: ['s > a'] }));
    assert.strictEqual(j.verdict, 'regression');
    assert.deepStrictEqual(j.missing, ['s > a']);
  });

  it('without test names, fewer executed tests than before is a regression', () => {
    const j = judge(w(['s > a'], { executed: 6 }), w([], { executed: 1, green: true }));
    assert.strictEqual(j.verdict, 'regression');
    assert.deepStrictEqual(j.fewerRan, [6, 1]);
  });

  it('new tests that appear are fine, and a fix with them is progress', () => {
    const j = judge(w(['s > a'], { ran: ALL }), w([], { ran: [...ALL, 's > e'], green: true }));
    assert.strictEqual(j.verdict, 'green');
  });

  it('when the suite did not load before, its placeholder failures may vanish: the suite loading is progress', () => {
    const j = judge(w(['test/a.test.js'], { loadError: true, ran: ['test/a.test.js'] }), w(['s > a'], { ran: ALL }));
    assert.strictEqual(j.verdict, 'progress');
  });

  it('a test found flaky is neither a regression nor progress', () => {
    const best = w(['s > a'], { ran: ALL });
    assert.strictEqual(judge(best, w(['s > a', 's > b'], { ran: ALL }), { flaky: ['s > b'] }).verdict, 'no-progress');
    assert.strictEqual(judge(w(['s > a', 's > b'], { ran: ALL }), w(['s > a'], { ran: ALL }), { flaky: ['s > b'] }).verdict, 'no-progress');
    const j = judge(best, w(['s > b'], { ran: ALL }), { flaky: ['s > b'] });
    assert.strictEqual(j.verdict, 'progress');
    assert.deepStrictEqual(j.fixed, ['s > a']);
  });

  it('a test that did not run in the best state and fails now is newly visible, not a regression (names known)', () => {
    const best = w(['s > a'], { ran: ['s > a', 's > b'] });
    const j = judge(best, w(['s > c'], { ran: ['s > a', 's > b', 's > c'] }));
    assert.strictEqual(j.verdict, 'progress');
    assert.deepStrictEqual(j.newlyVisible, ['s > c']);
    assert.match(j.note, /newly visible \(did not run before\): `s > c`/);
  });

  it('with counts only, a run that stopped early knows nothing of the tests it never reached', () => {
    const best = w(['s > a'], { executed: 2, stoppedEarly: 'pytest stopped after the first 1 failure' });
    assert.strictEqual(judge(best, w(['s > c'], { executed: 5 })).verdict, 'progress');
    const complete = w(['s > a'], { executed: 5 });
    assert.strictEqual(judge(complete, w(['s > c'], { executed: 5 })).verdict, 'regression', 'after a complete run a new failure broke something');
  });
});

describe('judge with a focus: the focused tests are the witness, the whole suite still guards against regressions', () => {
  const ran = { ran: ALL, ranCount: 4, executed: 4 };
  const focus = ['s > a', 's > b'];

  it('green when the focused tests pass and the rest fails as before, though the command exits non-zero; not when nothing explains the exit', () => {
    const j = judge(w(['s > a', 's > b', 's > c'], ran), w(['s > c'], ran), { focus });
    assert.strictEqual(j.verdict, 'green');
    assert.deepStrictEqual(j.fixed, ['s > a', 's > b']);
    const commandFailed = judge(w(['s > a', 's > b'], ran), w([], { ...ran, exitCode: 1, commandFailure: 'lint failed' }), { focus });
    assert.strictEqual(commandFailed.verdict, 'progress');
    const notRun = judge(w(['s > a', 's > c'], ran), w(['s > c'], { ...ran, ran: ['s > b', 's > c', 's > d'] }), { focus: ['s > a'] });
    assert.strictEqual(notRun.verdict, 'regression', 'a focused test that stopped running went missing');
  });

  it('progress only when the focused failing set shrinks; a fix outside the focus is no progress', () => {
    assert.strictEqual(judge(w(['s > a', 's > b', 's > c'], ran), w(['s > b', 's > c'], ran), { focus }).verdict, 'progress');
    const outside = judge(w(['s > a', 's > b', 's > c'], ran), w(['s > a', 's > b'], ran), { focus });
    assert.strictEqual(outside.verdict, 'no-progress');
    assert.match(outside.note, /outside the focus/);
  });
});

describe('judge: test files that did not load are counted apart, and weigh as they always did', () => {
  const notLoaded = (failing: string[], files: string[], ran: string[]) => w(failing, { loadError: true, loadErrorFiles: files, ran });

  it('the same verdicts as when node listed such a file among the failing tests (saved runs of older versions)', () => {
    const ran = ['s > a', 's > b'];
    const pairs: Array<[WitnessSummary, WitnessSummary]> = [
      [notLoaded(['s > a'], ['test/x.test.js', 'test/y.test.js'], ran), notLoaded(['s > a'], ['test/x.test.js'], ran)],
      [notLoaded(['s > a'], ['test/x.test.js'], ran), w(['s > a'], { ran: [...ran, 'x > t'] })],
      [w(['s > a'], { ran }), notLoaded(['s > a'], ['test/x.test.js'], ran)],
      [notLoaded(['s > a'], ['test/x.test.js'], ran), notLoaded(['s > a'], ['test/x.test.js', 'test/y.test.js'], ran)],
      [notLoaded(['s > a'], ['test/x.test.js'], ran), notLoaded(['s > a'], ['test/x.test.js'], ran)],
    ];
    const asBefore = (v: WitnessSummary): WitnessSummary => {
      const files = v.loadErrorFiles ?? [];
      return { ...v, failing: [...v.failing, ...files], loadErrorFiles: undefined, ran: v.ran ? [...v.ran, ...files] : null };
    };
    for (const [best, next] of pairs) {
      const now = judge(best, next);
      const before = judge(asBefore(best), asBefore(next));
      assert.strictEqual(now.verdict, before.verdict, `${JSON.stringify(best.loadErrorFiles)} → ${JSON.stringify(next.loadErrorFiles)}`);
      assert.deepStrictEqual(now.fixed, before.fixed);
    }
  });

  it('a file that stops loading in a suite that loaded is a regression; one that loads again is progress', () => {
    const ran = ['s > a', 's > b'];
    assert.strictEqual(judge(w(['s > a'], { ran }), notLoaded(['s > a'], ['test/x.test.js'], ran)).verdict, 'regression');
    const back = judge(notLoaded(['s > a'], ['test/x.test.js', 'test/y.test.js'], ran), notLoaded(['s > a'], ['test/x.test.js'], ran));
    assert.strictEqual(back.verdict, 'progress');
    assert.deepStrictEqual(back.fixed, ['test/y.test.js']);
  });

  it('the note counts them apart from the failing tests', () => {
    const ran = ['s > a'];
    const j = judge(notLoaded(['s > a'], ['test/x.test.js'], ran), notLoaded(['s > a'], ['test/x.test.js'], ran));
    assert.strictEqual(j.verdict, 'no-progress');
    assert.match(j.note, /still 1 failing, 1 test file did not load, 0 type errors/);
  });

  it('the best state counts a file that did not load like a failing test', () => {
    assert.strictEqual(isBetter(notLoaded(['s > a'], [], []), notLoaded([], ['test/x.test.js', 'test/y.test.js'], [])), true);
    assert.strictEqual(isBetter(notLoaded([], ['test/x.test.js', 'test/y.test.js'], []), notLoaded(['s > a'], [], [])), false);
  });
});
