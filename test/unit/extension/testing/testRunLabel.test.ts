// Issue 22 item 8: the test terminal named every test run of an agent's check session "baseline" (each check opens
// a new verifier); each run is now named from the engine's events, by the number the answer to the agent gives.
import * as assert from 'assert';
import { testRunLabel } from '../../../../src/extension/testing/testRunLabel';

describe('test run labels in the test terminal', () => {
  it('names a check session\'s runs by their check number, the first as check 0 (baseline)', () => {
    assert.strictEqual(testRunLabel({ type: 'phase', phase: 'baseline-tests' }, 'check'), 'check 0 (baseline)');
    assert.strictEqual(testRunLabel({ type: 'verifying', n: 2 }, 'check'), 'check 2');
  });

  it('names a run\'s test runs baseline, then by attempt', () => {
    assert.strictEqual(testRunLabel({ type: 'phase', phase: 'baseline-tests' }, 'attempt'), 'baseline');
    assert.strictEqual(testRunLabel({ type: 'verifying', n: 3 }, 'attempt'), 'attempt 3');
    assert.strictEqual(testRunLabel({ type: 'phase', phase: 'resume-tests' }, 'attempt'), 'the workspace as you left it');
    assert.strictEqual(testRunLabel({ type: 'phase', phase: 'final-tests' }, 'attempt'), 'the state the run ends at');
  });

  it('leaves the name alone for events that start no test run', () => {
    assert.strictEqual(testRunLabel({ type: 'phase', phase: 'model-check' }, 'attempt'), null);
    assert.strictEqual(testRunLabel({ type: 'phase', phase: 'snapshot' }, 'check'), null);
    assert.strictEqual(testRunLabel({ type: 'iteration-started', n: 1, max: 8 }, 'attempt'), null);
  });
});
