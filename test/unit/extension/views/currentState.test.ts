// Issue 11 item 1: after Roll back, Accept, Retry and Cancel, the status bar, the panel and the history tree all say
// where the workspace is now, each read from the run's state (the one source of truth).
import * as assert from 'assert';
import { newTally, foldEvent, settleTally } from '../../../../src/extension/run/runTally';
import { statusView } from '../../../../src/extension/statusBar/statusText';
import { buildPanelData } from '../../../../src/extension/views/panelData';
import { PanelController } from '../../../../src/extension/views/panelController';
import { describeNode } from '../../../../src/extension/views/historyTreeModel';
import type { HistoryRecord } from '../../../../src/ports/history';
import type { RunState } from '../../../../src/ports/runState';
import type { HostMessage, PanelData } from '../../../../src/shared/protocol';
import { iteration, record } from './records';

const T0 = 1_700_000_000_000;
const tests = (n: number, prefix = 't') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const typeError = { file: 'src/money.ts', line: 3, column: 1, code: 'TS2322', message: 'm' };

/** The parts of a finished RunState the views read: 6 failing at baseline, best 3 failing + 1 type error. */
function escalatedState(): RunState {
  const baseline = { snapshot: 's0', tree: 't0', witness: { failing: tests(6), diagnostics: [] } };
  const best = { snapshot: 's2', tree: 't2', witness: { failing: tests(3), diagnostics: [typeError] } };
  return {
    runId: 'r1', outcome: 'escalated', reason: 'stagnation', reasonText: 'No progress in the last 2 attempts.', finalState: 'best',
    baseline, best, current: { ...best }, iterations: [{}, {}, {}], tokens: { prompt: 9000, completion: 3000 },
    limits: { maxIterations: 8, maxTokens: 200_000, maxMinutes: 30 }, finishedAt: T0 + 60_000,
  } as unknown as RunState;
}

/** What Roll back to baseline does to a saved run (runActions.rollbackRun). */
function rolledBackToBaseline(s: RunState): RunState {
  return { ...s, current: { ...s.baseline }, finalState: 'baseline' } as RunState;
}

function finishedTally(s: RunState) {
  const t = newTally(T0, s.limits);
  foldEvent(t, { type: 'finished', outcome: s.outcome, state: s }, T0 + 60_000);
  return t;
}

function panelHarness(current: () => HistoryRecord, actions: { retry?: () => void } = {}) {
  const posted: HostMessage[] = [];
  const controller = new PanelController({
    post: (m) => posted.push(m),
    setupAction: async () => undefined,
    load: async () => ({ data: buildPanelData(current(), 'money', []) }),
    retry: async () => actions.retry?.(),
    rollback: async () => undefined,
    accept: async () => undefined,
    openDiff: async () => undefined,
    close: () => undefined,
  });
  const lastShown = () => (posted.filter((m) => m.type === 'show').at(-1) as { data: PanelData }).data;
  const lastStatus = () => (posted.filter((m) => m.type === 'status').at(-1) as { message: string } | undefined)?.message;
  return { controller, lastShown, lastStatus };
}

describe('every surface shows the run as it is now', () => {
  it('status bar: counts failing tests and type errors apart, and follows Roll back to baseline', () => {
    const s = escalatedState();
    const t = finishedTally(s);
    assert.strictEqual(statusView(t, T0 + 90_000).text, '$(error) Greenloop escalated · 3 failing, 1 type error');
    settleTally(t, rolledBackToBaseline(s));
    const v = statusView(t, T0 + 90_000);
    assert.strictEqual(v.text, '$(error) Greenloop escalated · 6 failing · at baseline');
    assert.ok(v.tooltip.includes('Workspace at the baseline (as before the run).'), v.tooltip.join('\n'));
  });

  it('status bar: Roll back to best after a baseline roll back shows the best counts again; Accept drops the marker', () => {
    const s = escalatedState();
    const t = finishedTally(s);
    settleTally(t, rolledBackToBaseline(s));
    settleTally(t, { ...s, finalState: 'best' } as RunState);
    assert.strictEqual(statusView(t, T0).text, '$(error) Greenloop escalated · 3 failing, 1 type error');
    settleTally(t, { ...rolledBackToBaseline(s), finalState: 'last' } as RunState);
    assert.strictEqual(statusView(t, T0).text, '$(error) Greenloop escalated · 6 failing');
  });

  it('status bar: a green run rolled back to the baseline no longer says green', () => {
    const s = { ...escalatedState(), outcome: 'green', reason: null, current: { snapshot: 's3', tree: 't3', witness: { failing: [], diagnostics: [] } } } as unknown as RunState;
    const t = finishedTally(s);
    assert.strictEqual(statusView(t, T0).text, '$(pass) Greenloop green');
    settleTally(t, rolledBackToBaseline(s));
    assert.strictEqual(statusView(t, T0).text, '$(discard) Greenloop rolled back · 6 failing');
  });

  it('panel: after Roll back to baseline it says the workspace is at the baseline and offers only the other roll back', async () => {
    let r = record({ iterations: [iteration(1), iteration(2)], finalState: 'best', finalFailing: ['Cart > tax'], finalDiagnostics: 1 });
    const h = panelHarness(() => r);
    await h.controller.receive({ type: 'ready' });
    assert.strictEqual(h.lastShown().workspaceText, 'Workspace at the best state: 1 failing, 1 type error.');
    assert.deepStrictEqual(h.lastShown().actions, { retry: true, rollbackBest: false, rollbackBaseline: true, accept: true });
    r = { ...r, finalState: 'baseline', finalFailing: r.baselineFailing, finalDiagnostics: 0 };
    await h.controller.receive({ type: 'rollback', to: 'baseline' });
    assert.strictEqual(h.lastShown().workspaceText, 'Workspace at the baseline (as before the run): 3 failing.');
    assert.strictEqual(h.lastStatus(), '', 'no stale status line beside the workspace line');
    assert.deepStrictEqual(h.lastShown().actions, { retry: true, rollbackBest: true, rollbackBaseline: false, accept: true });
  });

  it('panel: after Accept the Accept button is off and the workspace line says where the workspace is', async () => {
    let r = record({ iterations: [iteration(1)], finalState: 'best' });
    const h = panelHarness(() => r);
    await h.controller.receive({ type: 'ready' });
    r = { ...r, finalState: 'last' };
    await h.controller.receive({ type: 'accept' });
    assert.strictEqual(h.lastShown().actions.accept, false);
    assert.strictEqual(h.lastShown().workspaceText, 'Workspace at the state the run left: 1 failing.');
  });

  it('panel: after a green Retry it no longer says "Retrying…" and Retry is off', async () => {
    let r = record({ iterations: [iteration(1)] });
    const h = panelHarness(() => r, { retry: () => { r = { ...r, outcome: 'green', reason: null, finalFailing: [], finalDiagnostics: 0, finalState: 'last' }; } });
    await h.controller.receive({ type: 'ready' });
    await h.controller.receive({ type: 'retry', hint: 'rounding', extra: { iterations: 3, tokens: 0, minutes: 0 } });
    assert.doesNotMatch(h.lastStatus() ?? '', /Retrying/);
    assert.strictEqual(h.lastStatus(), 'Retry ended: Green.');
    assert.strictEqual(h.lastShown().workspaceText, 'Workspace at the state the run left: 0 failing.');
    assert.strictEqual(h.lastShown().actions.retry, false);
  });

  it('panel and tree: a run stopped before any attempt never claims it left the workspace at the best state', () => {
    const r = record({ outcome: 'cancelled', reason: null, iterations: [], finalState: 'best' });
    assert.strictEqual(buildPanelData(r, 'money', []).workspaceText, 'No edit was made: 1 failing.');
    assert.doesNotMatch(describeNode({ kind: 'run', folder: 'file:///ws', record: r }, T0).tooltip ?? '', /best state/);
  });

  it('tree: the run node says the workspace is at the baseline after a roll back, and counts type errors apart', () => {
    const r = record({ iterations: [iteration(1)], finalState: 'baseline', baselineDiagnostics: 1, finalFailing: ['a', 'b', 'c'], finalDiagnostics: 1 });
    const view = describeNode({ kind: 'run', folder: 'file:///ws', record: r }, r.startedAt);
    assert.match(view.tooltip ?? '', /Workspace at the baseline \(as before the run\)\./);
    assert.strictEqual(view.description, '14:03 · 3 failing, 1 type error → 3 failing, 1 type error');
  });
});
