import * as assert from 'assert';
import { gatedActor, gatedVerifier, PauseGate } from '../../../../src/extension/run/pauseGate';
import type { Actor, ActorRequest } from '../../../../src/ports/actor';
import type { Witness } from '../../../../src/ports/verifier';

const tick = () => new Promise((r) => setTimeout(r, 10));

describe('pausing the loop while a person decides about their edit', () => {
  function countingActor(log: string[]): Actor {
    return { label: 'fake', propose: async () => { log.push('model called'); return { kind: 'text', text: 'answer', usage: { prompt: 1, completion: 1 } }; } };
  }
  const req = (signal: AbortSignal): ActorRequest => ({ prompt: 'p', system: 's', iteration: 1, cwd: '/', signal });

  it('holds the model call and the test run until resumed', async () => {
    const gate = new PauseGate();
    const log: string[] = [];
    const actor = gatedActor(countingActor(log), gate);
    const verifier = gatedVerifier({ verify: async () => { log.push('verified'); return {} as Witness; } }, gate);
    gate.pause();
    const answer = actor.propose(req(new AbortController().signal)).then(() => log.push('answer returned'));
    const verified = verifier.verify();
    await tick();
    assert.deepStrictEqual(log, [], 'nothing happens while paused');
    gate.resume();
    await Promise.all([answer, verified]);
    assert.deepStrictEqual(log.sort(), ['answer returned', 'model called', 'verified']);
  });

  it('passes flaky re-runs through the gate too, and offers none when the verifier has none', async () => {
    const gate = new PauseGate();
    const log: string[] = [];
    const inner = { verify: async () => ({} as Witness), rerun: async (ids: string[]) => { log.push(`rerun ${ids.join(',')}`); return {} as Witness; } };
    const gated = gatedVerifier(inner, gate);
    gate.pause();
    const done = gated.rerun!(['a > b']);
    await tick();
    assert.deepStrictEqual(log, []);
    gate.resume();
    await done;
    assert.deepStrictEqual(log, ['rerun a > b']);
    assert.strictEqual(gatedVerifier({ verify: inner.verify }, gate).rerun, undefined);
  });

  it('holds an answer that arrives during a pause, so it is not applied under the person\'s typing', async () => {
    const gate = new PauseGate();
    const log: string[] = [];
    let release!: () => void;
    const slow: Actor = { label: 'slow', propose: () => new Promise((r) => { release = () => r({ kind: 'text', text: 'x', usage: { prompt: 0, completion: 0 } }); }) };
    const pending = gatedActor(slow, gate).propose(req(new AbortController().signal)).then(() => log.push('returned'));
    await tick();
    gate.pause();
    release();
    await tick();
    assert.deepStrictEqual(log, []);
    gate.resume();
    await pending;
    assert.deepStrictEqual(log, ['returned']);
  });

  it('lets Stop end a paused run at once', async () => {
    const gate = new PauseGate();
    const controller = new AbortController();
    gate.pause();
    const pending = gatedActor(countingActor([]), gate).propose(req(controller.signal));
    controller.abort();
    await assert.rejects(pending, (err: Error) => err.name === 'AbortError');
    assert.strictEqual(gate.paused, true);
  });
});
