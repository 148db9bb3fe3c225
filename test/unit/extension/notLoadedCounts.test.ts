// Issue 22 item 6: a syntax error in a source file made 106 test files fail to load next to 27 failing tests, and
// every surface said "133 failing". Each one a person reads now says "27 failing, 106 test files did not load".
import * as assert from 'assert';
import { countsText } from '../../../src/shared/plainWords';
import { liveLine } from '../../../src/extension/run/liveLines';
import { foldEvent, newTally, settleTally } from '../../../src/extension/run/runTally';
import { statusView } from '../../../src/extension/statusBar/statusText';
import { childrenOf, describeNode } from '../../../src/extension/views/historyTreeModel';
import { buildPanelData } from '../../../src/extension/views/panelData';
import { progressLine } from '../../../src/session/progressLine';
import type { IterationRecord, RunState } from '../../../src/ports/runState';
import { iteration, record } from './views/records';

const T0 = 1_700_000_000_000;
const LIMITS = { maxIterations: 8, maxTokens: 200_000, maxMinutes: 30 };
const tests = (n: number) => Array.from({ length: n }, (_, i) => `suite > test ${i}`);
const files = (n: number) => Array.from({ length: n }, (_, i) => `test/unit/file${i}.test.js`);

function state(failing: number, notLoaded: number): RunState {
  const witness = { failing: tests(failing), loadErrorFiles: files(notLoaded), diagnostics: [] };
  return {
    current: { witness }, limits: LIMITS, outcome: 'escalated', reason: 'stagnation', reasonText: '', finishedAt: T0, tokens: { prompt: 0, completion: 0 },
    iterations: [], finalState: 'best', llmCalls: 2, requests: 2,
  } as unknown as RunState;
}

describe('test files that did not load, counted apart wherever a count is shown', () => {
  it('in words: failing tests, then files that did not load, then type errors', () => {
    assert.strictEqual(countsText(27, 0, 106), '27 failing, 106 test files did not load');
    assert.strictEqual(countsText(27, 2, 1), '27 failing, 1 test file did not load, 2 type errors');
    assert.strictEqual(countsText(0, 0, 3), '3 test files did not load');
    assert.strictEqual(countsText(0, 0, 0), '0 failing');
    assert.strictEqual(countsText(4, 1), '4 failing, 1 type error');
  });

  it('the status bar, while the run goes and after it ends', () => {
    const t = newTally(T0, LIMITS);
    foldEvent(t, { type: 'run-started', runId: 'r', baselineFailing: 27, baselineNotLoaded: 106, baselineDiagnostics: 0, resumed: false, state: state(27, 106) }, T0);
    foldEvent(t, { type: 'iteration-started', n: 1, max: 8 }, T0);
    assert.match(statusView(t, T0).text, /· 27 failing, 106 test files did not load ·/);
    foldEvent(t, { type: 'verified', n: 1, verdict: 'progress', failing: 27, notLoaded: 0, diagnostics: 0, rolledBack: false, note: '', iteration: {} as never }, T0);
    assert.match(statusView(t, T0).text, /· 27 failing ·/);
    settleTally(t, state(2, 1));
    assert.match(statusView(t, T0).text, /escalated · 2 failing, 1 test file did not load/);
  });

  it('the live lines of the progress notification and the output channel', () => {
    const started = liveLine({ type: 'run-started', runId: 'r', baselineFailing: 27, baselineNotLoaded: 106, baselineDiagnostics: 0, resumed: false, state: {} as never });
    assert.strictEqual(started, 'before any edit: 27 failing, 106 test files did not load');
    const verified = liveLine({ type: 'verified', n: 2, verdict: 'regression', failing: 27, notLoaded: 3, diagnostics: 0, rolledBack: true, note: '', iteration: { flaky: [] } as unknown as IterationRecord });
    assert.strictEqual(verified, 'attempt 2: regression, 27 failing, 3 test files did not load; the edit was rolled back');
  });

  it('the CLI progress lines', () => {
    const line = progressLine({ type: 'run-started', runId: 'r', baselineFailing: 27, baselineNotLoaded: 106, baselineDiagnostics: 0, resumed: false, state: {} as never });
    assert.strictEqual(line, 'greenloop: baseline — 27 failing, 106 test files did not load, 0 type errors (run r)');
    const done = progressLine({ type: 'finished', outcome: 'escalated', state: state(27, 106) });
    assert.match(done ?? '', /\(27 failing, 106 test files did not load\)$/);
  });

  it('the Loop history tree: the run, each attempt, and each file as a file that did not load', () => {
    const r = record({
      baselineFailing: tests(27), baselineLoadErrorFiles: files(106), finalFailing: tests(2), finalLoadErrorFiles: [],
      iterations: [iteration(1, { failing: tests(2), loadErrorFiles: files(1) })],
    });
    const run = describeNode({ kind: 'run', folder: 'f', record: r }, T0);
    assert.match(run.description ?? '', /27 failing, 106 test files did not load → 2 failing$/);
    const attempt = { kind: 'iteration' as const, folder: 'f', runId: r.runId, iteration: r.iterations[0]! };
    assert.match(describeNode(attempt, T0).description ?? '', /^2 failing, 1 test file did not load · /);
    const [first] = childrenOf(attempt);
    const view = describeNode(first!, T0);
    assert.strictEqual(view.label, 'test/unit/file0.test.js');
    assert.strictEqual(view.description, 'did not load');
  });

  it('the run panel', () => {
    const r = record({ baselineFailing: tests(27), baselineLoadErrorFiles: files(106), finalFailing: tests(1), finalLoadErrorFiles: files(2) });
    const data = buildPanelData(r, 'ws', []);
    assert.strictEqual(data.baselineText, '27 failing, 106 test files did not load');
    assert.strictEqual(data.finalText, '1 failing, 2 test files did not load');
    assert.match(data.workspaceText, /1 failing, 2 test files did not load/);
    assert.deepStrictEqual(data.failingTests, ['suite > test 0', 'test/unit/file0.test.js (did not load)', 'test/unit/file1.test.js (did not load)']);
  });
});
