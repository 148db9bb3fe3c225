import * as assert from 'assert';
import { buildPanelData, defaultExtraBudget } from '../../../../src/extension/views/panelData';
import { iteration, record } from './records';

describe('escalation panel data', () => {
  const r = record({
    baselineDiagnostics: 1,
    iterations: [
      iteration(1, { verdict: 'progress', failing: ['Cart > tax'], diagnostics: 1, hypothesis: '  Totals ignored quantity.  ', tokens: { prompt: 8000, completion: 2000 } }),
      iteration(2, { verdict: 'regression', failing: ['Cart > tax', 'Cart > total'], diagnostics: 0, note: 'Broke Cart > total.', tokens: { prompt: 9000, completion: 1000 } }),
    ],
    tokens: { prompt: 17_000, completion: 3_000 },
    hints: ['Look at rounding.'],
    outputExcerpt: '1 failing',
  });

  it('charts the baseline first, then each attempt, counting failing tests plus type errors', () => {
    const d = buildPanelData(r, 'cart', [{ path: 'src/cart.ts', baselineToBest: true, bestToNow: false }]);
    assert.deepStrictEqual(d.points, [
      { n: 0, failing: 4, verdict: 'baseline' },
      { n: 1, failing: 2, verdict: 'progress' },
      { n: 2, failing: 2, verdict: 'regression' },
    ]);
    assert.strictEqual(d.baselineFailing, 4);
    assert.strictEqual(d.finalFailing, 1);
  });

  it('carries the reason in words, the engine sentence, the hypotheses, the output, the diff and the hints', () => {
    const d = buildPanelData(r, 'cart', [{ path: 'src/cart.ts', baselineToBest: true, bestToNow: false }]);
    assert.strictEqual(d.reasonTitle, 'Stuck: no progress');
    assert.match(d.reasonSentence, /did not reduce the failing tests/);
    assert.strictEqual(d.reasonText, 'No progress in the last 2 attempts (patience 2).');
    assert.deepStrictEqual(d.hypotheses.map((h) => [h.n, h.verdict, h.failing, h.hypothesis, h.note]), [
      [1, 'progress', 2, 'Totals ignored quantity.', ''],
      [2, 'regression', 2, '', 'Broke Cart > total.'],
    ]);
    assert.strictEqual(d.outputExcerpt, '1 failing');
    assert.deepStrictEqual(d.changedFiles, [{ path: 'src/cart.ts', baselineToBest: true, bestToNow: false }]);
    assert.deepStrictEqual(d.hints, ['Look at rounding.']);
    assert.deepStrictEqual(d.flaky, []);
    assert.deepStrictEqual(buildPanelData(record({ flaky: ['Cart > rounding'] }), 'cart', []).flaky, ['Cart > rounding']);
    assert.strictEqual(d.tokensUsed, 20_000);
    assert.strictEqual(d.running, false);
    assert.strictEqual(buildPanelData(record({ outcome: 'running' }), 'cart', []).running, true);
  });

  it("says per attempt what the agent did and which files were put back; a model's attempt says neither", () => {
    const agentRun = record({
      iterations: [
        iteration(1, { agent: { requests: 12, gatewayAnswers: 1, stoppedBy: 'request-cap', exitCode: 0 }, reverted: [{ path: 'test/calc.test.js', reason: 'Test files are protected.' }] }),
        iteration(2),
      ],
    });
    const [first, second] = buildPanelData(agentRun, 'calc', []).hypotheses;
    assert.strictEqual(first.agentText, 'Agent: 12 requests (1 answered by Greenloop: request-cap), exit 0');
    assert.deepStrictEqual(first.reverted, ['test/calc.test.js — Test files are protected.']);
    assert.strictEqual(second.agentText, undefined);
    assert.strictEqual(second.reverted, undefined);
  });

  it('lists per attempt what changed outside the workspace and was left as it is; an attempt without says nothing', () => {
    const run = record({
      iterations: [
        iteration(1, { outsideWarnings: [{ where: 'node_modules/x/index.js', what: 'changed', why: 'dependencies are not saved' }] }),
        iteration(2),
      ],
    });
    const [first, second] = buildPanelData(run, 'calc', []).hypotheses;
    assert.deepStrictEqual(first.outsideWarnings, ['node_modules/x/index.js changed — dependencies are not saved']);
    assert.strictEqual(second.outsideWarnings, undefined);
  });

  // Issue 24: a cast added on the line of a diagnostic is kept (it can be right) but named for the person to look at.
  it('names per attempt the casts it added on a diagnostic\'s line, and lists those the workspace still holds as a warning of the run', () => {
    const cast = 'src/money.ts:3: the edit adds `as any` on the line where tsc TS2322 "Type \'string\' is not assignable to type \'number\'." was reported; check that the cast is right and does not just hide the error.';
    const undone = 'src/tax.ts:9: the edit adds `as unknown as Rate` on the line where tsc TS2322 "x" was reported; check that the cast is right and does not just hide the error.';
    const run = record({
      outcome: 'green', reason: null, finalState: 'last',
      iterations: [
        iteration(1, { verdict: 'regression', rolledBack: true, castWarnings: [undone] }),
        iteration(2, { verdict: 'green', castWarnings: [cast] }),
        iteration(3),
      ],
    });
    const d = buildPanelData(run, 'money', []);
    assert.deepStrictEqual(d.hypotheses.map((h) => h.castWarnings), [[undone], [cast], undefined]);
    // The edit of attempt 1 was rolled back: its cast is not in the files any more, so only attempt 2's is the run's.
    assert.deepStrictEqual(d.castWarnings, [{ n: 2, text: cast }]);
    // Put back to the best state (attempt 2): a later attempt's cast is not in the files either.
    const later = 'src/money.ts:4: the edit adds `as any` on the line where tsc TS2322 "y" was reported; check that the cast is right and does not just hide the error.';
    const atBest = { ...run, finalState: 'best', bestSnapshot: 'snap-2', iterations: [...run.iterations.slice(0, 2), iteration(3, { verdict: 'no-progress', castWarnings: [later] })] };
    assert.deepStrictEqual(buildPanelData(atBest, 'money', []).castWarnings, [{ n: 2, text: cast }]);
    assert.deepStrictEqual(buildPanelData({ ...atBest, finalState: 'last' }, 'money', []).castWarnings, [{ n: 2, text: cast }, { n: 3, text: later }]);
    // At the baseline none of the run's edits is in the files.
    assert.deepStrictEqual(buildPanelData({ ...run, finalState: 'baseline' }, 'money', []).castWarnings, []);
    assert.deepStrictEqual(buildPanelData(record({ iterations: [iteration(1)] }), 'cart', []).castWarnings, []);
  });

  it('proposes 3 more attempts at what an attempt has cost so far, rounded up', () => {
    // 20,000 tokens over 2 attempts → 30,000 for 3; 6 minutes over 2 attempts → 9 minutes for 3.
    assert.deepStrictEqual(defaultExtraBudget(r), { iterations: 3, tokens: 30_000, minutes: 9 });
  });

  it('falls back to modest defaults when nothing was spent yet', () => {
    assert.deepStrictEqual(defaultExtraBudget(record({ finishedAt: null })), { iterations: 3, tokens: 60_000, minutes: 6 });
  });

  // Issue 22 item 7: a run stopped before any test run said "0 failing" (read as green) and charted a 0 baseline.
  it('shows no count for a run whose tests never gave one: no 0 baseline, no "0 failing"', () => {
    const unreachable = record({
      reason: 'actor-error', reasonText: 'Could not connect to the model server at http://127.0.0.1:9/v1 (connection refused); check that it is running.',
      baselineFailing: [], finalFailing: [], finalState: 'baseline', bestSnapshot: 'snap-0', unmeasured: true,
    });
    const d = buildPanelData(unreachable, 'calc', []);
    assert.deepStrictEqual(d.points, []);
    assert.strictEqual(d.countsText, 'no test count');
    assert.strictEqual(d.finalText, 'no test count');
    assert.strictEqual(d.workspaceText, 'No edit was made, and the tests gave no count.');
    assert.doesNotMatch(JSON.stringify(d), /\d+ failing/);
    assert.strictEqual(buildPanelData(r, 'cart', []).countsText, '3 failing, 1 type error → 1 failing', 'a measured run keeps its counts');
  });
});

