import * as assert from 'assert';
import { MAX_HINT_CHARS, describeGrant, parseHostMessage, parseWebviewMessage } from '../../../../src/shared/protocol';
import { buildPanelData } from '../../../../src/extension/views/panelData';
import { record } from './records';

describe('panel protocol', () => {
  const extra = { iterations: 3, tokens: 60_000, minutes: 10 };

  it('accepts every well-formed webview message and trims the hint', () => {
    assert.deepStrictEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepStrictEqual(parseWebviewMessage({ type: 'accept' }), { type: 'accept' });
    assert.deepStrictEqual(parseWebviewMessage({ type: 'close', junk: 1 }), { type: 'close' });
    assert.deepStrictEqual(parseWebviewMessage({ type: 'rollback', to: 'baseline' }), { type: 'rollback', to: 'baseline' });
    assert.deepStrictEqual(parseWebviewMessage({ type: 'retry', hint: '  look at rounding \n', extra }), { type: 'retry', hint: 'look at rounding', extra });
    assert.deepStrictEqual(parseWebviewMessage({ type: 'retry', hint: '', extra: { iterations: 1, tokens: 0, minutes: 0 } })?.type, 'retry');
  });

  it('rejects unknown and malformed messages', () => {
    const bad: unknown[] = [
      null, undefined, 'ready', 42, [], {}, { type: 'launchMissiles' }, { type: 'READY' }, { type: 7 },
      { type: 'rollback' }, { type: 'rollback', to: 'last' }, { type: 'rollback', to: ['best'] },
      { type: 'retry', extra }, { type: 'retry', hint: 5, extra },
      { type: 'retry', hint: 'x'.repeat(MAX_HINT_CHARS + 1), extra },
      { type: 'retry', hint: 'x' },
      { type: 'retry', hint: 'x', extra: { ...extra, iterations: 0 } },
      { type: 'retry', hint: 'x', extra: { ...extra, iterations: 2.5 } },
      { type: 'retry', hint: 'x', extra: { ...extra, tokens: -1 } },
      { type: 'retry', hint: 'x', extra: { ...extra, minutes: Number.NaN } },
      { type: 'retry', hint: 'x', extra: { ...extra, minutes: '10' } },
      { type: 'retry', hint: 'x', extra: { ...extra, iterations: 1e9 } },
      { type: 'retry', hint: 'x', extra: { iterations: 3, tokens: 0 } },
    ];
    for (const m of bad) assert.strictEqual(parseWebviewMessage(m), null, `should reject ${JSON.stringify(m)}`);
  });

  it('lets the webview check host messages the same way', () => {
    const data = buildPanelData(record(), 'cart', []);
    assert.deepStrictEqual(parseHostMessage({ type: 'show', data }), { type: 'show', data });
    assert.deepStrictEqual(parseHostMessage({ type: 'busy', busy: true }), { type: 'busy', busy: true });
    assert.deepStrictEqual(parseHostMessage({ type: 'status', message: 'Rolled back.', level: 'info' }), { type: 'status', message: 'Rolled back.', level: 'info' });
    for (const m of [
      { type: 'show' }, { type: 'show', data: { ...data, points: 'no' } }, { type: 'show', data: { ...data, running: 'yes' } },
      { type: 'show', data: { ...data, defaultExtra: { iterations: 0, tokens: 0, minutes: 0 } } },
      { type: 'status', message: 'x', level: 'panic' }, { type: 'busy' }, { type: 'eval', code: '1' }, null,
    ]) {
      assert.strictEqual(parseHostMessage(m), null, `should reject ${JSON.stringify(m).slice(0, 80)}`);
    }
  });

  it('says exactly what a retry grants', () => {
    assert.strictEqual(describeGrant(extra), 'This grants 3 more attempts, 60,000 more tokens and 10 more minutes.');
    assert.strictEqual(describeGrant({ iterations: 1, tokens: 0, minutes: 1 }), 'This grants 1 more attempt, no extra tokens and 1 more minute.');
    assert.strictEqual(describeGrant({ iterations: 2, tokens: 500, minutes: 0 }), 'This grants 2 more attempts, 500 more tokens and no extra time.');
  });
});
