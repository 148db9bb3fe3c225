// Budgets checked before spending, grants counted from where a run stopped, and the deadline that stops what is in flight.
import * as assert from 'assert';
import { applyGrant, MIN_ANSWER_TOKENS, spentWithoutGrant, tokenRoom } from '../../../../../src/core/loop/bounds/budget';
import { RunDeadline } from '../../../../../src/core/loop/bounds/deadline';
import { systemClock } from '../../../../../src/base/systemClock';
import type { RunState } from '../../../../../src/ports/runState';

function stateWith(over: { iterations?: number; tokens?: number; limits?: Partial<RunState['limits']>; elapsedMs?: number }): RunState {
  return {
    iterations: Array.from({ length: over.iterations ?? 0 }, (_, i) => ({ n: i + 1 })),
    tokens: { prompt: over.tokens ?? 0, completion: 0 },
    limits: { maxIterations: 8, maxTokens: 10_000, maxMinutes: 30, ...over.limits },
    grants: [], startedAt: 1_000_000, elapsedBeforeMs: over.elapsedMs ?? 0, finishedAt: null,
  } as unknown as RunState;
}

describe('token budget before a call', () => {
  it('lets a call through with what is left after the prompt as its answer limit', () => {
    assert.deepStrictEqual(tokenRoom(stateWith({ tokens: 4000 }), 1000), { ok: true, maxOutputTokens: 5000 });
  });
  it('does not make a call whose prompt leaves no room for an answer', () => {
    const r = tokenRoom(stateWith({ tokens: 9000 }), 1000 - MIN_ANSWER_TOKENS + 1);
    assert.strictEqual(r.ok, false);
    assert.match((r as { text: string }).text, /only 1,000 of the 10,000-token budget are left/);
  });
  it('has no limit to send when there is no token budget', () => {
    assert.deepStrictEqual(tokenRoom(stateWith({ limits: { maxTokens: 0 }, tokens: 1e9 }), 5000), { ok: true });
  });
});

describe('a grant on resume', () => {
  it('adds to what was used, not to the original limit', () => {
    const s = stateWith({ iterations: 2, tokens: 3000, elapsedMs: 4 * 60_000 });
    applyGrant(s, { hint: 'h', iterations: 2, tokens: 1000, minutes: 5 }, s.startedAt);
    assert.deepStrictEqual(s.limits, { maxIterations: 4, maxTokens: 4000, maxMinutes: 9 });
  });
  it('keeps a limit it does not extend, and an unlimited budget unlimited', () => {
    const s = stateWith({ iterations: 2, tokens: 3000, limits: { maxMinutes: 0 } });
    applyGrant(s, { hint: '', iterations: 0, minutes: 10 }, s.startedAt);
    assert.deepStrictEqual(s.limits, { maxIterations: 8, maxTokens: 10_000, maxMinutes: 0 });
  });
  it('names a spent budget the grant leaves spent', () => {
    assert.match(spentWithoutGrant(stateWith({ tokens: 10_000 }), { hint: '', iterations: 2 }, 0) ?? '', /10,000-token budget is spent/);
    assert.strictEqual(spentWithoutGrant(stateWith({ tokens: 10_000 }), { hint: '', iterations: 2, tokens: 500 }, 0), null);
    assert.match(spentWithoutGrant(stateWith({ iterations: 8 }), { hint: '', iterations: 0 }, 0) ?? '', /all 8 attempts are used/);
  });
});

describe('the run deadline', () => {
  it('aborts what is in flight when the time is up, and says it was the deadline, not the person', async () => {
    const person = new AbortController();
    const d = new RunDeadline(systemClock, person.signal, Date.now() + 80);
    await new Promise((r) => setTimeout(r, 150));
    assert.strictEqual(d.signal.aborted, true);
    assert.strictEqual(d.expired, true);
    d.dispose();
  });
  it('passes the person\'s Stop through at once, and that is not the deadline', () => {
    const person = new AbortController();
    const d = new RunDeadline(systemClock, person.signal, Date.now() + 60_000);
    person.abort();
    assert.strictEqual(d.signal.aborted, true);
    assert.strictEqual(d.expired, false);
    d.dispose();
  });
  it('never fires without a time budget', () => {
    const d = new RunDeadline(systemClock, new AbortController().signal, null);
    assert.strictEqual(d.remainingMs(), Infinity);
    d.dispose();
  });
});
