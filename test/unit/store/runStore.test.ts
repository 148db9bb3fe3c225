// Saved runs on disk: a long list of tests the run's witnesses share (the verifier hands back one list while a suite
// names the same tests) is written once however many attempts point at it, and read back whole and shared.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { RunStore } from '../../../src/store/runStore';
import { createRedactor } from '../../../src/base/redact';
import { newRunState, UNVERIFIED } from '../../../src/core/run/runStateFactory';
import type { IterationRecord, RunState, WitnessSummary } from '../../../src/ports/runState';
import { DEFAULT_LOOP_CONFIG } from '../../../src/session/loopDefaults';
import { historyKey } from '../../../src/store/historyStore';
import { tempDir } from '../support/cli';

const KEY = 'sk-test-0123456789abcdef';

function witness(ran: string[], failing: string[]): WitnessSummary {
  return { ...UNVERIFIED, loadError: false, signature: 'sig', failing, failures: failing.map((id) => ({ id, message: `${id} failed; key ${KEY}` })), ran, skipped: [] };
}

function runWithAttempts(attempts: number, ran: string[]): RunState {
  const base = { snapshot: 's0', tree: 't0', witness: witness(ran, ['case 1', 'case 2']), iteration: 0 };
  const state = newRunState({ cwd: '/w', actor: { label: 'scripted', propose: async () => { throw new Error('unused'); } }, config: DEFAULT_LOOP_CONFIG }, 'run-1', 1, base);
  for (let n = 1; n <= attempts; n++) {
    const w = witness(ran, ['case 2']);
    state.iterations.push({
      n, startedAt: n, verdict: 'progress', failing: w.failing, diagnostics: 0, rolledBack: false, treeHash: `t${n}`, proposalHash: `p${n}`,
      files: ['src/calc.js'], tokens: { prompt: 1, completion: 1 }, durationMs: 1, note: '', hypothesis: '', beforeSnapshot: `s${n - 1}`,
      afterSnapshot: `s${n}`, witness: w,
    } satisfies IterationRecord);
    state.best = { snapshot: `s${n}`, tree: `t${n}`, witness: w, iteration: n };
    state.current = { snapshot: `s${n}`, tree: `t${n}`, witness: w };
  }
  return state;
}

describe('saved runs (RunStore)', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('runstore');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const savedFile = () => path.join(dir, 'runs', historyKey('/w'), 'run-1.json');
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `module ${i % 50} > case ${i} answers from the cache`);

  it('writes a list of 20,000 tests shared by 8 attempts once, and reads back the same run', async () => {
    const store = new RunStore(dir, '/w', createRedactor([KEY]));
    const ran = ids(20_000);
    const state = runWithAttempts(8, ran);
    await store.save(state);
    const written = fs.statSync(savedFile()).size;
    const oneList = JSON.stringify(ran).length;
    assert.ok(written < 2 * oneList, `the saved run is ${written} bytes; the list alone is ${oneList}`);

    const back = await store.load('last');
    assert.deepStrictEqual(back.iterations.map((i) => i.witness?.ran), Array.from({ length: 8 }, () => ran));
    assert.deepStrictEqual(back.baseline.witness.ran, ran);
    assert.strictEqual(back.iterations[7]!.witness!.ran, back.baseline.witness.ran, 'read back as one list again');
    assert.deepStrictEqual(back.best.witness.failures, [{ id: 'case 2', message: 'case 2 failed; key ***' }], 'still redacted');
    assert.ok(!('$lists' in back));
  });

  it('writes a small suite\'s run as plain JSON, without a $lists table', async () => {
    const store = new RunStore(dir, '/w', createRedactor([]));
    await store.save(runWithAttempts(3, ids(40)));
    const text = fs.readFileSync(savedFile(), 'utf8');
    assert.ok(!text.includes('$list'));
    assert.deepStrictEqual(JSON.parse(text).iterations[2].witness.ran, ids(40));
    assert.deepStrictEqual((await store.load('run-1')).iterations[2]!.witness!.ran, ids(40));
  });

  it('refuses in one sentence a saved run whose list references point nowhere or at themselves', async () => {
    const store = new RunStore(dir, '/w', createRedactor([]));
    await store.save(runWithAttempts(3, ids(200)));
    const saved = JSON.parse(fs.readFileSync(savedFile(), 'utf8'));
    assert.ok(Array.isArray(saved.$lists) && saved.$lists.length > 0, 'the shared list is in $lists');
    saved.baseline.witness.failing = { $list: 99 };
    saved.$lists[0] = [{ $list: 0 }];
    fs.writeFileSync(savedFile(), JSON.stringify(saved));
    await assert.rejects(store.load('run-1'), /The saved state of run run-1 is not a Greenloop run \("baseline" is not what a saved run holds\), so it cannot be resumed/);
  });
});
