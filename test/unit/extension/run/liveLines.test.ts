// Issue 11 item 6: what happens to each attempt is said in the progress notification and the output channel as it
// happens, in plain words (no verdict names, tests and type errors counted apart).
import * as assert from 'assert';
import { liveLine } from '../../../../src/extension/run/liveLines';
import type { IterationRecord } from '../../../../src/ports/runState';

const iteration = (over: Partial<IterationRecord> = {}) => ({ flaky: [], ...over }) as unknown as IterationRecord;

describe('live progress lines', () => {
  it('says a refused edit, with the reason, the moment it is refused', () => {
    const line = liveLine({ type: 'verified', n: 2, verdict: 'invalid-proposal', failing: 3, diagnostics: 0, rolledBack: true, note: 'test/calc.test.js is a test file; it may not be edited', iteration: iteration() });
    assert.strictEqual(line, 'attempt 2: edit refused (test/calc.test.js is a test file; it may not be edited)');
  });

  it('says a regression was rolled back, counting tests and type errors apart', () => {
    const line = liveLine({ type: 'verified', n: 3, verdict: 'regression', failing: 4, diagnostics: 1, rolledBack: true, note: 'broke Cart > total', iteration: iteration() });
    assert.strictEqual(line, 'attempt 3: regression, 4 failing, 1 type error; the edit was rolled back (broke Cart > total)');
  });

  it('names a flaky test found on the re-run', () => {
    const line = liveLine({ type: 'verified', n: 1, verdict: 'no-progress', failing: 2, diagnostics: 0, rolledBack: false, note: '', iteration: iteration({ flaky: ['Cart > rounding'] }) });
    assert.strictEqual(line, 'attempt 1: no progress, 2 failing; flaky: Cart > rounding failed, then passed on a re-run');
  });

  it('says which tests judge an attempt: the failing ones first, the whole suite, the flipped ones again', () => {
    assert.strictEqual(liveLine({ type: 'verifying', n: 2, scope: 'targeted', tests: 3 }), 'running the 3 failing tests (attempt 2)');
    assert.strictEqual(liveLine({ type: 'verifying', n: 2, scope: 'targeted', tests: 1 }), 'running the failing test (attempt 2)');
    assert.strictEqual(liveLine({ type: 'verifying', n: 2, scope: 'full' }), 'running the whole suite (attempt 2)');
    assert.strictEqual(liveLine({ type: 'verifying', n: 2, scope: 'targeted', tests: 2, confirming: true }), 'running the 2 tests that now pass again (attempt 2)');
  });

  it('uses plain words for the steps: running the tests, not the verifier; no run id', () => {
    assert.strictEqual(liveLine({ type: 'verifying', n: 1 }), 'running the tests (attempt 1)');
    const started = liveLine({ type: 'run-started', runId: '20261123-201143-abcd', baselineFailing: 3, baselineDiagnostics: 1, resumed: false, state: {} as never });
    assert.strictEqual(started, 'before any edit: 3 failing, 1 type error');
    assert.strictEqual(liveLine({ type: 'verified', n: 4, verdict: 'green', failing: 0, diagnostics: 0, rolledBack: false, note: '', iteration: iteration() }), 'attempt 4: green, 0 failing');
  });

  // Issue 22 item 7: during the first test run the notification showed no text at all.
  it('says what runs before the first result: the snapshot, the model check, the baseline test run', () => {
    assert.strictEqual(liveLine({ type: 'phase', phase: 'snapshot' }), 'saving the workspace as it is (snapshot)');
    assert.strictEqual(liveLine({ type: 'phase', phase: 'model-check' }), 'checking that the model can be used');
    assert.strictEqual(liveLine({ type: 'phase', phase: 'model-check', agent: true }), 'checking that the agent can be used');
    assert.strictEqual(liveLine({ type: 'phase', phase: 'baseline-tests' }), 'running the tests (baseline)');
    assert.strictEqual(liveLine({ type: 'phase', phase: 'resume-tests' }), 'running the tests (the workspace as you left it)');
    assert.strictEqual(liveLine({ type: 'phase', phase: 'final-tests' }), 'running the tests once more (the state the run ends at)');
  });
});
