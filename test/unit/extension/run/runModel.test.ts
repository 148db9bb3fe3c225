// The one run model the views read: a LiveRun folds the engine's events and says when it changed; a SavedRun read
// from history answers the same questions. Secrets never reach a view through either.
import * as assert from 'assert';
import { Uri } from '../support/fakeVscode';
import { LiveRun } from '../../../../src/extension/run/liveRun';
import { SavedRun } from '../../../../src/extension/run/savedRun';
import type { RunView } from '../../../../src/extension/run/runView';
import { createRedactor } from '../../../../src/base/redact';
import { STOPPED_BEFORE_BASELINE } from '../../../../src/core/run/report';
import type { IterationRecord, RunState } from '../../../../src/ports/runState';
import { iteration, record } from '../views/records';

const T0 = 1_700_000_000_000;
const SECRET = 'sk-live-0123456789abcdef';
const folder = Uri.file('/ws') as never;
const limits = { maxIterations: 8, maxTokens: 200_000, maxMinutes: 30 };
const tests = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);

function state(over: Partial<RunState> = {}): RunState {
  const baseline = { snapshot: 's0', tree: 't0', witness: { failing: tests(4), diagnostics: [] } };
  return {
    runId: 'r1', cwd: '/ws', actor: 'scripted', configHash: 'h', config: {}, startedAt: T0, finishedAt: null, elapsedBeforeMs: 0,
    outcome: 'running', reason: null, reasonText: '', finalState: null, baseline, best: baseline, current: baseline,
    iterations: [], tokens: { prompt: 0, completion: 0 }, llmCalls: 0, hints: [], limits,
    ...over,
  } as unknown as RunState;
}

const attempt = (n: number, failing: number, note = '') => ({ n, failing: tests(failing), diagnostics: 0, note, files: [], tokens: { prompt: 100, completion: 20 } }) as unknown as IterationRecord;

function counting(run: RunView): () => number {
  let n = 0;
  run.onDidChange(() => n++);
  return () => n;
}

describe('LiveRun: a run going on in this window', () => {
  it('folds the engine events into its figures and fires a change for each', async () => {
    const run = LiveRun.starting(folder, 'r1', T0, limits, createRedactor([SECRET]));
    const changes = counting(run);
    assert.strictEqual(run.record?.runId, undefined, 'no record before the run has started');
    assert.strictEqual(await run.state(), undefined);
    const started = state();
    run.fold({ type: 'run-started', runId: 'r1', baselineFailing: 4, baselineDiagnostics: 0, resumed: false, state: started }, T0 + 1);
    run.fold({ type: 'iteration-started', n: 1, max: 8 }, T0 + 2);
    run.fold({ type: 'verified', n: 1, verdict: 'progress', failing: 2, diagnostics: 0, rolledBack: false, note: '', iteration: attempt(1, 2) }, T0 + 3);
    assert.strictEqual(changes(), 3);
    assert.deepStrictEqual([run.tally.iteration, run.tally.failing, run.tally.trend], [1, 2, [4, 2]]);
    assert.strictEqual(await run.state(), started);
    assert.strictEqual(run.record?.runId, 'r1');
    const done = state({ outcome: 'green', finishedAt: T0 + 9, current: { snapshot: 's1', tree: 't1', witness: { failing: [], diagnostics: [] } }, finalState: 'last', iterations: [attempt(1, 0)] } as unknown as Partial<RunState>);
    run.fold({ type: 'finished', outcome: 'green', state: done }, T0 + 9);
    assert.deepStrictEqual([run.tally.outcome, run.tally.phase, run.tally.failing], ['green', 'done', 0]);
    assert.strictEqual(run.record?.outcome, 'green');
  });

  it('masks secrets in what it shows: the reason on the status bar, the record, an attempt', async () => {
    const run = LiveRun.starting(folder, 'r1', T0, limits, createRedactor([SECRET]));
    const leaked = `The agent said: token ${SECRET} refused.`;
    const s = state({ reasonText: leaked, iterations: [attempt(1, 3, leaked)] });
    run.fold({ type: 'run-started', runId: 'r1', baselineFailing: 4, baselineDiagnostics: 0, resumed: false, state: s }, T0);
    run.fold({ type: 'escalated', reason: 'actor-error', message: leaked }, T0 + 1);
    for (const shown of [run.tally.reasonText, run.record?.reasonText, (await run.iteration(1))?.note]) {
      assert.ok(shown && !shown.includes(SECRET), `a secret reached a view: ${shown}`);
    }
    assert.strictEqual(await run.iteration(2), undefined);
  });

  it('a resumed run starts from the figures its earlier sessions left', async () => {
    const from = state({ outcome: 'escalated', finishedAt: T0 + 60_000, elapsedBeforeMs: 5_000, tokens: { prompt: 900, completion: 100 }, iterations: [attempt(1, 3), attempt(2, 3)] });
    const run = LiveRun.resuming(folder, from, T0 + 120_000, createRedactor([]));
    assert.deepStrictEqual([run.runId, run.tally.iteration, run.tally.tokens, run.tally.elapsedBeforeMs, run.tally.trend], ['r1', 2, 1000, 65_000, [4, 3, 3]]);
    assert.strictEqual(run.record?.runId, 'r1', 'a resumed run has its record at once, so the tree keeps its row');
    const unmeasured = state({ baseline: { snapshot: 's0', tree: 't0', witness: { failing: [], diagnostics: [], unmeasured: true } } } as unknown as Partial<RunState>);
    assert.deepStrictEqual(LiveRun.resuming(folder, unmeasured, T0, createRedactor([])).tally.trend, [], 'no 0 for a start that was never measured');
  });

  it('stopped before the baseline says so; an internal error keeps its (masked) message', () => {
    const stopped = LiveRun.starting(folder, 'r1', T0, limits, createRedactor([]));
    stopped.failed('The operation was aborted.', true, T0 + 5);
    assert.deepStrictEqual([stopped.tally.outcome, stopped.tally.phase, stopped.tally.reasonText, stopped.tally.finishedAt], ['cancelled', 'done', STOPPED_BEFORE_BASELINE, T0 + 5]);
    const broken = LiveRun.starting(folder, 'r1', T0, limits, createRedactor([SECRET]));
    broken.failed(`fetch failed for ${SECRET}`, false, T0 + 5);
    assert.strictEqual(broken.tally.outcome, 'error');
    assert.ok(!broken.tally.reasonText.includes(SECRET));
  });

  it('pauses and Roll back / Accept change what every view reads, and each fires a change', async () => {
    const run = LiveRun.starting(folder, 'r1', T0, limits, createRedactor([]));
    const changes = counting(run);
    run.paused();
    assert.strictEqual(run.tally.paused, true);
    run.decided();
    assert.strictEqual(run.tally.paused, false);
    const rolledBack = state({ outcome: 'escalated', finalState: 'baseline', iterations: [attempt(1, 2)] });
    run.settle(rolledBack);
    assert.deepStrictEqual([run.tally.workspaceAt, run.tally.failing, run.record?.finalState], ['baseline', 4, 'baseline']);
    assert.strictEqual(await run.state(), rolledBack);
    assert.strictEqual(changes(), 3);
  });
});

describe('SavedRun: a run read back from history', () => {
  it('answers from its history line at once and reads the saved state once, masked', async () => {
    let loads = 0;
    const saved = state({ outcome: 'escalated', reasonText: `key ${SECRET}`, iterations: [attempt(1, 2, `used ${SECRET}`)] });
    const run = new SavedRun(folder, record({ runId: 'r1', iterations: [iteration(1, { failing: ['a', 'b'] })] }), createRedactor([SECRET]), async () => {
      loads++;
      return saved;
    });
    assert.strictEqual(run.runId, 'r1');
    assert.strictEqual(run.record?.outcome, 'escalated');
    assert.strictEqual(loads, 0, 'nothing read from disk until asked');
    assert.ok(!(await run.state())?.reasonText.includes(SECRET));
    assert.ok(!(await run.iteration(1))?.note.includes(SECRET));
    assert.strictEqual(loads, 1);
  });

  it('a saved state that is gone reads as undefined, not as an error', async () => {
    const run = new SavedRun(folder, record(), createRedactor([]), async () => {
      throw new Error('ENOENT: run r1 not found');
    });
    assert.strictEqual(await run.state(), undefined);
    assert.strictEqual(await run.iteration(1), undefined);
  });

  it('its figures come from the history line; a run that never measured its tests has no count', () => {
    const r = record({ outcome: 'escalated', finalFailing: ['x'], finalDiagnostics: 2, iterations: [iteration(1, { failing: ['x', 'y'], diagnostics: 0 }), iteration(2, { failing: ['x'], diagnostics: 2, agent: {} as never })] });
    const t = new SavedRun(folder, r, createRedactor([]), async () => state()).tally;
    assert.deepStrictEqual([t.phase, t.outcome, t.iteration, t.failing, t.diagnostics, t.trend, t.workspaceAt, t.agent], ['done', 'escalated', 2, 1, 2, [3, 2, 3], 'best', true]);
    const blind = new SavedRun(folder, record({ unmeasured: true, finalFailing: [] }), createRedactor([]), async () => state()).tally;
    assert.strictEqual(blind.failing, null);
    assert.deepStrictEqual(blind.trend, []);
  });
});
