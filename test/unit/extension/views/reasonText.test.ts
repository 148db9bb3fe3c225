import * as assert from 'assert';
import type { EscalationReason } from '../../../../src/ports/runState';
import { ESCALATION_EXPLANATIONS, explainStop, isEscalationReason } from '../../../../src/extension/views/reasonText';

// Typed as a Record over the union, so adding a reason to runState.ts fails type-checking here until it is listed.
const EVERY_REASON: Record<EscalationReason, true> = {
  stagnation: true, cycle: true, 'repeated-proposal': true,
  'budget-iterations': true, 'budget-tokens': true, 'budget-time': true,
  'actor-error': true, 'verify-error': true, 'user-edit': true,
};

describe('why a run stopped, in words', () => {
  const reasons = Object.keys(EVERY_REASON) as EscalationReason[];

  it('explains every escalation reason with a title, a sentence and advice, and no two alike', () => {
    assert.deepStrictEqual(Object.keys(ESCALATION_EXPLANATIONS).sort(), [...reasons].sort());
    const sentences = new Set<string>();
    for (const reason of reasons) {
      const e = explainStop('escalated', reason);
      assert.ok(e.title.length > 3 && !e.title.endsWith('.'), `${reason}: short title`);
      assert.match(e.sentence, /^[A-Z].+\.$/, `${reason}: one sentence`);
      assert.match(e.advice, /^[A-Z].+\.$/, `${reason}: advice is a sentence`);
      sentences.add(e.sentence);
    }
    assert.strictEqual(sentences.size, reasons.length);
  });

  it('points at the setting or action that helps for each kind of stop', () => {
    assert.match(explainStop('escalated', 'budget-tokens').advice, /greenloop\.maxTokens/);
    assert.match(explainStop('escalated', 'budget-time').advice, /greenloop\.maxMinutes/);
    assert.match(explainStop('escalated', 'verify-error').advice, /greenloop\.testCommand|greenloop\.verifyTimeoutSeconds/);
    assert.match(explainStop('escalated', 'actor-error').advice, /API key|model/);
    assert.match(explainStop('escalated', 'user-edit').advice, /Accept/);
    assert.match(explainStop('escalated', 'stagnation').advice, /hint/);
  });

  it('explains the other outcomes, and anything unknown from a damaged history, without throwing', () => {
    assert.strictEqual(explainStop('green', null).title, 'Green');
    assert.strictEqual(explainStop('cancelled', null).title, 'Stopped by you');
    assert.strictEqual(explainStop('running', null).title, 'Running');
    assert.match(explainStop('error', null).sentence, /bug/);
    assert.strictEqual(explainStop('escalated', 'gremlins').title, 'Stopped');
    assert.strictEqual(explainStop('toString', null).title, 'Stopped');
    assert.strictEqual(isEscalationReason('__proto__'), false);
    assert.strictEqual(isEscalationReason('cycle'), true);
  });
});
