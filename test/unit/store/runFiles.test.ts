import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { RunFiles } from '../../../src/store/runFiles';
import type { HistoryRecord } from '../../../src/ports/history';
import { createRedactor } from '../../../src/base/redact';

describe('run files: history that survives a window reload', () => {
  let tmp: string;
  let workspace: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-runfiles-'));
    workspace = path.join(tmp, 'ws');
    fs.mkdirSync(workspace);
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const record = (runId: string, finalState: string): HistoryRecord => ({
    runId, cwd: workspace, actor: 'a', startedAt: 1, finishedAt: 2, outcome: 'escalated', reason: 'stagnation', reasonText: '', finalState,
    configHash: 'h', baselineFailing: ['t'], baselineDiagnostics: 0, finalFailing: ['t'], finalDiagnostics: 0, baselineSnapshot: `${runId}/1`,
    bestSnapshot: `${runId}/1`, iterations: [], tokens: { prompt: 0, completion: 0 }, llmCalls: 0, hints: [], outputExcerpt: '',
  });

  it('lists a run changed after it finished (rollback, accept) once, as it is now, in the order runs started', async () => {
    const stateDir = path.join(tmp, 'state');
    const files = new RunFiles(stateDir, workspace, createRedactor([]));
    assert.strictEqual(RunFiles.hasHistory(stateDir, workspace), false);
    await files.history.append(record('r1', 'best'));
    await files.history.append(record('r2', 'best'));
    await files.history.append(record('r1', 'baseline'));
    assert.strictEqual(RunFiles.hasHistory(stateDir, workspace), true);

    // A new window reads the same files.
    const again = await new RunFiles(stateDir, workspace, createRedactor([])).list();
    assert.deepStrictEqual(again.records.map((r) => [r.runId, r.finalState]), [['r1', 'baseline'], ['r2', 'best']]);
    assert.deepStrictEqual(again.warnings, []);
  });

  it('skips a corrupt line with a warning and keeps the rest', async () => {
    const stateDir = path.join(tmp, 'state');
    const files = new RunFiles(stateDir, workspace, createRedactor([]));
    await files.history.append(record('r1', 'best'));
    const historyDir = path.join(stateDir, 'history');
    const file = path.join(historyDir, fs.readdirSync(historyDir)[0]);
    fs.appendFileSync(file, '{not json\n');
    await files.history.append(record('r2', 'last'));
    const { records, warnings } = await files.list();
    assert.deepStrictEqual(records.map((r) => r.runId), ['r1', 'r2']);
    assert.strictEqual(warnings.length, 1);
    assert.match(warnings[0], /Skipped 1 unreadable line/);
  });
});
