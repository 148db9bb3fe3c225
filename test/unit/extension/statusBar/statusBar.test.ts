import * as assert from 'assert';
import { EventEmitter, fake, Uri } from '../support/fakeVscode';
import type { FakeStatusBarItem } from '../support/fakeVscode';
import { foldEvent, newTally } from '../../../../src/extension/run/runTally';
import type { RunTally } from '../../../../src/extension/run/runTally';
import { statusView } from '../../../../src/extension/statusBar/statusText';
import { StatusBar } from '../../../../src/extension/statusBar/statusBar';
import type { RunState } from '../../../../src/ports/runState';

const T0 = 1_700_000_000_000;

/** Just the parts of a live RunState the tally reads on run-started. */
function startedState(failing: number, diagnostics: number, limits: RunState['limits']): RunState {
  const witness = { failing: Array.from({ length: failing }, (_, i) => `t${i}`), diagnostics: Array.from({ length: diagnostics }, () => ({ file: 'a.ts', line: 1, column: 1, code: 'TS1', message: 'm' })) };
  return { current: { witness }, limits } as unknown as RunState;
}

function running(limits = { maxIterations: 8, maxTokens: 200_000, maxMinutes: 30 }): RunTally {
  const t = newTally(T0, limits);
  foldEvent(t, { type: 'run-started', runId: 'r', baselineFailing: 6, baselineDiagnostics: 1, resumed: false, state: startedState(6, 1, limits) }, T0);
  foldEvent(t, { type: 'iteration-started', n: 1, max: limits.maxIterations }, T0);
  foldEvent(t, { type: 'proposal-received', n: 1, tokens: { prompt: 9000, completion: 3000 }, files: ['a.ts'] }, T0);
  foldEvent(t, { type: 'verified', n: 1, verdict: 'progress', failing: 5, diagnostics: 0, rolledBack: false, note: '', iteration: {} as never }, T0);
  foldEvent(t, { type: 'iteration-started', n: 2, max: limits.maxIterations }, T0);
  return t;
}

describe('status bar', () => {
  beforeEach(() => fake.reset());

  it('shows attempt n/N, failing count, tokens and elapsed time against the budgets while running', () => {
    const v = statusView(running(), T0 + 134_000);
    assert.strictEqual(v.text, '$(sync~spin) Greenloop 2/8 · 5 failing · 12k/200k tok · 2:14');
    assert.strictEqual(v.severity, 'normal');
    assert.deepStrictEqual(v.tooltip.slice(0, 2), ['Failing per step: 7 → 5', 'Left: 6 attempts, 188k tokens, 27:46 of time']);
    assert.match(v.accessibleLabel, /^Greenloop running: attempt 2 of 8, 5 failing, 12000 tokens used, 2:14 elapsed$/);
  });

  it('after Retry with hint counts from the state the run resumes from, with the granted budget', () => {
    const t = running();
    foldEvent(t, { type: 'verified', n: 2, verdict: 'no-progress', failing: 5, diagnostics: 0, rolledBack: false, note: '', iteration: {} as never }, T0);
    const grown = { maxIterations: 11, maxTokens: 200_000, maxMinutes: 30 };
    foldEvent(t, { type: 'run-started', runId: 'r', baselineFailing: 6, baselineDiagnostics: 1, resumed: true, state: startedState(5, 0, grown) }, T0);
    assert.match(statusView(t, T0).text, /2\/11 · 5 failing/);
  });

  it('turns to the warning colour once any budget passes 75 %, and not before', () => {
    const t = running({ maxIterations: 8, maxTokens: 16_000, maxMinutes: 30 });
    assert.strictEqual(statusView(t, T0).severity, 'normal', '12k of 16k tokens is exactly 75 %');
    foldEvent(t, { type: 'proposal-received', n: 2, tokens: { prompt: 100, completion: 0 }, files: [] }, T0);
    assert.strictEqual(statusView(t, T0).severity, 'warning');

    const slow = running();
    assert.strictEqual(statusView(slow, T0 + 22 * 60_000).severity, 'normal');
    assert.strictEqual(statusView(slow, T0 + 23 * 60_000).severity, 'warning', '23 of 30 minutes');
  });

  it('shows an escalation in the error colour with the reason', () => {
    const t = running();
    foldEvent(t, { type: 'escalated', reason: 'stagnation', message: '2 attempts in a row without progress.' }, T0);
    const state = {
      iterations: [{}], reason: 'stagnation', reasonText: '2 attempts in a row without progress.', tokens: { prompt: 9000, completion: 3000 },
      current: { witness: { failing: ['a', 'b', 'c', 'd', 'e'], diagnostics: [] } }, limits: { maxIterations: 8, maxTokens: 200_000, maxMinutes: 30 },
    } as unknown as RunState;
    foldEvent(t, { type: 'finished', outcome: 'escalated', state }, T0 + 60_000);
    const v = statusView(t, T0 + 999_000);
    assert.strictEqual(v.severity, 'error');
    assert.strictEqual(v.text, '$(error) Greenloop escalated · 5 failing');
    assert.strictEqual(v.tooltip[0], 'Stopped: 2 attempts in a row without progress.');
    assert.match(v.tooltip.join('\n'), /1 attempt, 12k\/200k tok, 1:00/, 'the time stops at the finish');
  });

  it('a test command that could not run shows no failing count (it would read as green), only that the tests could not run', () => {
    const limits = { maxIterations: 8, maxTokens: 200_000, maxMinutes: 30 };
    const t = newTally(T0, limits);
    const reasonText = 'The test command `npm run test:ci` cannot run: package.json has no "test:ci" script.';
    foldEvent(t, { type: 'run-started', runId: 'r', baselineFailing: 0, baselineDiagnostics: 0, resumed: false, unverified: true, state: startedState(0, 0, limits) }, T0);
    foldEvent(t, { type: 'escalated', reason: 'verify-error', message: reasonText }, T0);
    const state = { iterations: [], reason: 'verify-error', reasonText, tokens: { prompt: 0, completion: 0 }, current: { witness: { failing: [], diagnostics: [] } }, limits } as unknown as RunState;
    foldEvent(t, { type: 'finished', outcome: 'escalated', state }, T0 + 1000);
    const v = statusView(t, T0 + 2000);
    assert.strictEqual(v.text, '$(error) Greenloop: the tests could not run');
    assert.strictEqual(v.severity, 'error');
    assert.match(v.tooltip[0], /no "test:ci" script/);
  });

  // Issue 22 item 7: with greenloop.model.baseUrl at a closed port the status bar said "escalated · 0 failing · at
  // baseline" though no test ever ran.
  function stoppedBeforeTests(reason: 'actor-error' | 'budget-time', reasonText: string, agent = false): RunTally {
    const limits = { maxIterations: 8, maxTokens: 200_000, maxMinutes: 30 };
    const t = newTally(T0, limits);
    foldEvent(t, { type: 'phase', phase: 'snapshot' }, T0);
    if (reason === 'actor-error') foldEvent(t, { type: 'phase', phase: 'model-check', agent }, T0);
    foldEvent(t, { type: 'run-started', runId: 'r', baselineFailing: 0, baselineDiagnostics: 0, resumed: false, unverified: true, stoppedFor: reason, state: startedState(0, 0, limits) }, T0);
    foldEvent(t, { type: 'escalated', reason, message: reasonText }, T0);
    const state = {
      iterations: [], reason, reasonText, finalState: 'baseline', tokens: { prompt: 0, completion: 0 }, limits,
      current: { witness: { failing: [], diagnostics: [], unmeasured: true } },
    } as unknown as RunState;
    foldEvent(t, { type: 'finished', outcome: 'escalated', state }, T0 + 1000);
    return t;
  }

  it('a model that cannot be used before any test run shows no count, only that the model cannot be used', () => {
    const reasonText = 'Could not connect to the model server at http://127.0.0.1:9/v1 (connection refused); check that it is running.';
    const v = statusView(stoppedBeforeTests('actor-error', reasonText), T0 + 2000);
    assert.strictEqual(v.text, '$(error) Greenloop: the model cannot be used · tests not run');
    assert.strictEqual(v.severity, 'error');
    assert.strictEqual(v.tooltip[0], `Stopped: ${reasonText}`);
    assert.doesNotMatch(`${v.text} ${v.tooltip.join(' ')} ${v.accessibleLabel}`, /\d+ failing|at baseline|checking tests/);
    assert.strictEqual(statusView(stoppedBeforeTests('actor-error', 'The agent CLI `qwen` was not found.', true), T0).text, '$(error) Greenloop: the agent cannot be used · tests not run');
  });

  it('a time budget that ran out before the first test run finished shows no count either', () => {
    const v = statusView(stoppedBeforeTests('budget-time', 'The time budget (0.1 min) ran out before the first test run finished; nothing was changed.'), T0 + 2000);
    assert.strictEqual(v.text, '$(error) Greenloop: out of time before the first test run finished');
    assert.doesNotMatch(`${v.text} ${v.accessibleLabel}`, /\d+ failing/);
  });

  // Issue 22 item 8: while the model (or agent) was checked, the item said "checking tests", which had not begun.
  it('says what runs before the first count: saving the workspace, checking the model or agent, then the tests', () => {
    const t = newTally(T0, { maxIterations: 8, maxTokens: 200_000, maxMinutes: 30 });
    foldEvent(t, { type: 'phase', phase: 'snapshot' }, T0);
    assert.match(statusView(t, T0).text, / · saving the workspace · /);
    foldEvent(t, { type: 'phase', phase: 'model-check', agent: false }, T0);
    const model = statusView(t, T0);
    assert.match(model.text, /^\$\(sync~spin\) Greenloop 0\/8 · checking the model · /);
    assert.strictEqual(model.tooltip[0], 'Checking that the model can be used…');
    assert.doesNotMatch(`${model.text} ${model.tooltip.join(' ')}`, /checking tests|Running the tests/);
    foldEvent(t, { type: 'phase', phase: 'model-check', agent: true }, T0);
    assert.match(statusView(t, T0).text, / · checking the agent · /);
    foldEvent(t, { type: 'phase', phase: 'baseline-tests' }, T0);
    assert.match(statusView(t, T0).text, / · checking tests · /);
    assert.strictEqual(statusView(t, T0).tooltip[0], 'Running the tests on the unchanged workspace…');
  });

  it('puts text, colour, accessible name and a click that opens the run onto the item', () => {
    const emitter = new EventEmitter<void>();
    const folder = Uri.file('/work/app');
    let tally: RunTally | undefined;
    let now = T0;
    const bar = new StatusBar({ onDidChange: emitter.event as never, current: () => (tally ? { folder: folder as never, runId: 'r1', tally } : undefined) }, () => now);
    const item = fake.statusItems[0] as FakeStatusBarItem;
    assert.strictEqual(item.name, 'Greenloop');
    assert.strictEqual(item.visible, false, 'hidden before the first run');

    tally = running({ maxIterations: 2, maxTokens: 0, maxMinutes: 0 });
    emitter.fire();
    assert.strictEqual(item.visible, true);
    assert.strictEqual(item.text, '$(sync~spin) Greenloop 2/2 · 5 failing · 12k tok · 0:00');
    assert.strictEqual(item.backgroundColor?.id, 'statusBarItem.warningBackground', '2 of 2 attempts is past 75 %');
    assert.deepStrictEqual(item.command, { title: 'Open Greenloop run', command: 'greenloop.openRunPanel', arguments: [folder.toString(), 'r1'] });
    assert.match(item.accessibilityInformation!.label, /^Greenloop running/);
    now += 5000;
    bar.update();
    assert.match(item.text, / · 0:05$/);
    bar.dispose();
  });

  it('a Stop during the first test run shows no count: the run stopped before the first test run finished', () => {
    const t = newTally(T0, { maxIterations: 8, maxTokens: 200_000, maxMinutes: 30 });
    t.outcome = 'cancelled';
    t.phase = 'done';
    t.finishedAt = T0 + 4_000;
    const v = statusView(t, T0 + 5_000);
    assert.strictEqual(v.text, '$(circle-slash) Greenloop stopped before the first test run finished');
    assert.deepStrictEqual(v.tooltip, ['Greenloop stopped before the first test run finished; nothing was changed.']);
    assert.doesNotMatch(`${v.text} ${v.tooltip.join(' ')}`, /failing|checking tests/);
  });
});

