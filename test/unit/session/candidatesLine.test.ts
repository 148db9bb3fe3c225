// The CLI's progress lines for an attempt with several answers: one per answer tried, one for what they came to.
import * as assert from 'node:assert/strict';
import { progressLine } from '../../../src/session/progressLine';
import type { CandidateRecord } from '../../../src/ports/runState';

const cand = (k: number, verdict: CandidateRecord['verdict']): CandidateRecord => ({
  k, verdict, tokens: { prompt: 1, completion: 1 }, files: [], failing: null, newlyFailing: 0, findings: 0, diffLines: 0, votes: 1, chosen: k === 1, note: '', proposalHash: null,
});

describe('progress lines of an attempt with several candidates', () => {
  it('says what the answers came to, in the order of the pick, and which goes on', () => {
    const line = progressLine({ type: 'candidates-judged', n: 2, chosen: 1, candidates: [cand(1, 'green'), cand(2, 'refused'), cand(3, 'no-progress')] });
    assert.equal(line, 'greenloop: attempt 2: 3 candidates — 1 green, 1 no progress, 1 refused; answer 1 goes on');
  });

  it('says each answer as it is tried', () => {
    const line = progressLine({ type: 'candidate-tried', n: 2, k: 3, of: 3, verdict: 'refused', files: ['test/a.test.js'], note: 'a protected test file' });
    assert.equal(line, 'greenloop: attempt 2: answer 3 of 3 — refused (test/a.test.js): a protected test file');
  });
});
