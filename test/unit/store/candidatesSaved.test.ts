// Issue 41: the answers of an attempt with several candidates survive the run's end — the history line the Loop
// history and the panel read, the saved state a window reloads, and the live run — with each answer's snapshot, so
// its diff can be shown later. The JSON report keeps its documented shape: no snapshot id in it.
import * as assert from 'assert';
import { createRedactor } from '../../../src/base/redact';
import { toHistoryRecord } from '../../../src/core/run/historyRecord';
import { toReport } from '../../../src/core/run/report';
import { newRunState, UNVERIFIED } from '../../../src/core/run/runStateFactory';
import { SavedRun } from '../../../src/extension/run/savedRun';
import type { CandidateRecord, IterationRecord, WitnessSummary } from '../../../src/ports/runState';
import { DEFAULT_LOOP_CONFIG } from '../../../src/session/loopDefaults';
import { RunFiles } from '../../../src/store/runFiles';
import { tempDir } from '../support/cli';

const witness = (failing: string[]): WitnessSummary => ({ ...UNVERIFIED, loadError: false, signature: 'sig', failing, failures: [], ran: ['a', 'b'], skipped: [] });

const answers: CandidateRecord[] = [
  { k: 1, tokens: { prompt: 900, completion: 90 }, files: ['src/calc.js'], verdict: 'green', failing: 0, newlyFailing: 0, findings: 0, diffLines: 2, votes: 2, chosen: true, note: 'the failing tests pass', proposalHash: 'p1', snapshot: 'run-1/2' },
  { k: 2, tokens: { prompt: 900, completion: 95 }, files: ['test/calc.test.js'], verdict: 'refused', failing: null, newlyFailing: 0, findings: 0, diffLines: 0, votes: 0, chosen: false, lostBecause: 'it was refused', note: 'test/calc.test.js is a protected test file', proposalHash: null },
];

function finishedRun() {
  const base = { snapshot: 'run-1/1', tree: 't0', witness: witness(['a']), iteration: 0 };
  const state = newRunState({ cwd: '/w', actor: { label: 'scripted', propose: async () => { throw new Error('unused'); } }, config: DEFAULT_LOOP_CONFIG }, 'run-1', 1, base);
  const w = witness([]);
  state.iterations.push({
    n: 1, startedAt: 1, verdict: 'green', failing: [], diagnostics: 0, rolledBack: false, treeHash: 't1', proposalHash: 'p1', files: ['src/calc.js'],
    tokens: { prompt: 1800, completion: 185 }, durationMs: 1, note: '', hypothesis: '', beforeSnapshot: 'run-1/1', afterSnapshot: 'run-1/3', witness: w, candidates: answers,
  } satisfies IterationRecord);
  state.best = { snapshot: 'run-1/3', tree: 't1', witness: w, iteration: 1 };
  state.current = { snapshot: 'run-1/3', tree: 't1', witness: w };
  state.outcome = 'green';
  state.finishedAt = 2;
  return state;
}

describe('saved runs keep the answers of an attempt with several candidates', () => {
  it('in the history line, read back by a new window as the Loop history and the panel read it', async () => {
    const dir = tempDir('candidates-saved');
    const state = finishedRun();
    const files = new RunFiles(dir, '/w', createRedactor([]));
    await files.runs.save(state);
    await files.history.append(toHistoryRecord(state));

    const again = new RunFiles(dir, '/w', createRedactor([]));
    const [line] = (await again.list()).records;
    const saved = new SavedRun({} as never, line, createRedactor([]), () => again.runs.load(line.runId));
    assert.deepStrictEqual(saved.record.iterations[0].candidates, answers);
    assert.strictEqual(saved.record.iterations[0].candidates?.[0].snapshot, 'run-1/2', "the chosen answer's diff can be shown");
    assert.deepStrictEqual((await saved.iteration(1))?.candidates, answers, 'the whole saved state has them too');
  });

  it('and the JSON report names no snapshot', () => {
    const report = toReport(finishedRun(), createRedactor([]));
    assert.deepStrictEqual(report.iterations[0].candidates?.map((c) => Object.keys(c).includes('snapshot')), [false, false]);
    assert.strictEqual(report.iterations[0].candidates?.[1].lostBecause, 'it was refused');
  });
});
