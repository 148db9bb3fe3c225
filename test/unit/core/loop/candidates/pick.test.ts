// The order that picks an attempt's candidate: each rule decides one case here, with every rule before it tied.
import * as assert from 'node:assert/strict';
import { pickCandidate, type Ranked } from '../../../../../src/core/loop/candidates/pick';
import { agreementKey, diffLines } from '../../../../../src/core/loop/candidates/agreement';

const c = (k: number, over: Partial<Ranked> = {}): Ranked => ({ k, verdict: 'no-progress', failing: 2, newlyFailing: 0, findings: 0, agreeKey: `edit-${k}`, diffLines: 4, ...over });

describe('candidates: the pick', () => {
  it('green beats progress beats no progress, whatever came first', () => {
    const p = pickCandidate([c(1, { verdict: 'no-progress', failing: 2 }), c(2, { verdict: 'progress', failing: 1 }), c(3, { verdict: 'green', failing: 0 })]);
    assert.equal(p.chosen, 3);
    assert.match(p.lostBecause.get(2)!, /some failing tests pass, after the one kept the failing tests pass/);
  });

  it('then fewer failing tests', () => {
    const p = pickCandidate([c(1, { verdict: 'progress', failing: 3 }), c(2, { verdict: 'progress', failing: 1 })]);
    assert.equal(p.chosen, 2);
    assert.equal(p.lostBecause.get(1), 'more failing tests (3 against 1)');
  });

  it('then no newly failing test', () => {
    const p = pickCandidate([c(1, { failing: 2, newlyFailing: 1 }), c(2, { failing: 2, newlyFailing: 0 })]);
    assert.equal(p.chosen, 2);
    assert.equal(p.lostBecause.get(1), 'it breaks 1 test that passed');
  });

  it('then fewer checker findings', () => {
    const p = pickCandidate([c(1, { findings: 3 }), c(2, { findings: 1 })]);
    assert.equal(p.chosen, 2);
    assert.equal(p.lostBecause.get(1), 'more checker findings (3 against 1)');
  });

  it('then agreement: answers making the same edit vote together, even against a smaller, earlier one', () => {
    const p = pickCandidate([c(1, { agreeKey: 'a', diffLines: 2 }), c(2, { agreeKey: 'b', diffLines: 6 }), c(3, { agreeKey: 'b', diffLines: 6 })]);
    assert.equal(p.chosen, 2);
    assert.equal(p.votes.get(2), 2);
    assert.equal(p.lostBecause.get(1), 'fewer answers made the same edit (1 against 2)');
    assert.equal(p.lostBecause.get(3), 'the same result as an earlier answer');
  });

  it('then the smaller edit', () => {
    const p = pickCandidate([c(1, { diffLines: 9 }), c(2, { diffLines: 3 })]);
    assert.equal(p.chosen, 2);
    assert.equal(p.lostBecause.get(1), 'a larger edit (9 lines against 3)');
  });

  it('then the earliest', () => {
    const p = pickCandidate([c(1), c(2)]);
    assert.equal(p.chosen, 1);
    assert.equal(p.lostBecause.get(2), 'the same result as an earlier answer');
  });

  it('never picks one that was not tested, and picks none when none was', () => {
    const p = pickCandidate([c(1, { verdict: 'refused', failing: null }), c(2, { verdict: 'no-progress' }), c(3, { verdict: 'missing', failing: null, agreeKey: null })]);
    assert.equal(p.chosen, 2);
    assert.equal(p.lostBecause.get(1), 'it could not be applied');
    assert.equal(p.lostBecause.get(3), 'it did not arrive');
    assert.equal(pickCandidate([c(1, { verdict: 'refused' }), c(2, { verdict: 'repeat' })]).chosen, null);
  });

  it('agreement ignores whitespace and comments; the diff counts changed lines', () => {
    const a = agreementKey([{ path: 'a.js', before: 'x', after: 'return a+b;\n' }]);
    const b = agreementKey([{ path: 'a.js', before: 'x', after: '  return a + b; // sum\n/* why */\n' }]);
    const d = agreementKey([{ path: 'a.js', before: 'x', after: 'return a*b;\n' }]);
    assert.equal(a, b);
    assert.notEqual(a, d);
    assert.equal(diffLines([{ path: 'a.js', before: 'one\ntwo\nthree\n', after: 'one\n2\nthree\n' }]), 2);
  });
});
