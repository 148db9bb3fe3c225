// Issue 41: the escalation panel lists the last attempt's answers (`--candidates N`) — each one's verdict, which went
// on, what its trial said, why it lost — through the typed protocol into the panel's own section.
import * as assert from 'assert';
import { buildPanelData } from '../../../../src/extension/views/panelData';
import { panelHtml } from '../../../../src/extension/views/panelHtml';
import { parseHostMessage } from '../../../../src/shared/protocol';
import { candidate, iteration, record } from './records';

const run = record({
  iterations: [
    iteration(1, { verdict: 'no-progress', candidates: [candidate(1, { chosen: true, lostBecause: undefined }), candidate(2, { verdict: 'missing', failing: null, files: [], snapshot: undefined })] }),
    iteration(2, {
      verdict: 'no-progress', failing: ['Cart > tax'],
      candidates: [
        candidate(1, { verdict: 'no-progress', failing: 1, newlyFailing: 1, note: 'the failing tests still fail, and 1 other test now fails', lostBecause: 'answer 2 leaves no new test failing' }),
        candidate(2, { verdict: 'no-progress', failing: 1, chosen: true, lostBecause: undefined, note: 'the failing tests still fail' }),
        candidate(3, { verdict: 'refused', failing: null, files: ['test/cart.test.ts'], snapshot: undefined, note: 'test/cart.test.ts is a protected test file', lostBecause: 'it was refused' }),
      ],
    }),
  ],
});

describe('escalation panel: the last attempt\'s answers', () => {
  it('lists each answer of the last attempt with several, its verdict, which was chosen, and why each other lost', () => {
    const data = buildPanelData(run, 'cart', []);
    assert.strictEqual(data.candidates?.n, 2);
    assert.strictEqual(data.candidates?.summary, '3 candidates — 2 no progress, 1 refused');
    assert.deepStrictEqual(data.candidates?.items.map((i) => [i.k, i.verdictText, i.chosen, i.detail, i.lostBecause]), [
      [1, 'no progress', false, '1 failing (1 newly) · 1,150 tokens', 'answer 2 leaves no new test failing'],
      [2, 'no progress', true, '1 failing · 1,150 tokens', undefined],
      [3, 'refused', false, '1,150 tokens', 'it was refused'],
    ]);
    assert.strictEqual(data.candidates?.items[2].note, 'test/cart.test.ts is a protected test file');
    assert.strictEqual(buildPanelData(record({ iterations: [iteration(1)] }), 'cart', []).candidates, undefined, 'one answer per attempt: no such list');
  });

  it('passes the protocol check both ways, and a malformed list is refused', () => {
    const data = buildPanelData(run, 'cart', []);
    assert.deepStrictEqual(parseHostMessage({ type: 'show', data }), { type: 'show', data });
    const bad = { ...data, candidates: { ...data.candidates, items: [{ k: 1, chosen: 'yes' }] } };
    assert.strictEqual(parseHostMessage({ type: 'show', data: bad }), null);
  });

  it('has its own section, hidden until a run has answers to list, before the hypotheses', () => {
    const html = panelHtml({ cspSource: 'c', scriptUri: 's', styleUri: 'st', nonce: 'n', title: 't' });
    assert.match(html, /<section id="candidates" aria-labelledby="candidates-heading" hidden>/);
    assert.match(html, /<ol id="candidate-list" class="candidates" aria-label="Answers of the last attempt">/);
    assert.ok(html.indexOf('id="candidates"') < html.indexOf('id="hypotheses"'));
  });
});
