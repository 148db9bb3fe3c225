// The Loop history lists the folder's runs as RunViews: saved ones from the history file, read once until the history
// changes, and this window's live run, whose row appears and follows its events without reading the file again.
import * as assert from 'assert';
import { EventEmitter, Uri } from '../support/fakeVscode';
import { HistoryTreeProvider } from '../../../../src/extension/views/historyTree';
import type { HistoryNode } from '../../../../src/extension/views/historyTreeModel';
import { LiveRun } from '../../../../src/extension/run/liveRun';
import { SavedRun } from '../../../../src/extension/run/savedRun';
import type { RunServiceApi } from '../../../../src/extension/run/runServiceApi';
import { createRedactor } from '../../../../src/base/redact';
import type { RunState } from '../../../../src/ports/runState';
import { record } from './records';

const T0 = 1_700_000_000_000;
const folder = Uri.file('/ws') as never;
const baseline = { snapshot: 's0', tree: 't0', witness: { failing: ['a', 'b'], diagnostics: [] } };
const started = {
  runId: 'r2', cwd: '/ws', actor: 'scripted', configHash: 'h', config: {}, startedAt: T0 + 1000, finishedAt: null, elapsedBeforeMs: 0,
  outcome: 'running', reason: null, reasonText: '', finalState: null, baseline, best: baseline, current: baseline,
  iterations: [], tokens: { prompt: 0, completion: 0 }, llmCalls: 0, hints: [], limits: { maxIterations: 8, maxTokens: 1000, maxMinutes: 5 },
} as unknown as RunState;

const ids = (nodes: HistoryNode[]) => nodes.map((n) => (n.kind === 'run' ? `${n.record.runId}:${n.record.outcome}` : n.kind));

describe('Loop history reads the run model', () => {
  it('shows the live run once it has started, newest first, and follows it without rereading the history', async () => {
    const changes = new EventEmitter<unknown>();
    const live = LiveRun.starting(folder, 'r2', T0 + 1000, started.limits, createRedactor([]));
    const old = new SavedRun(folder, record({ runId: 'r1', startedAt: T0 }), createRedactor([]), async () => started);
    let reads = 0;
    const runs = {
      onDidChange: changes.event, active: live, latest: live, folders: () => [folder],
      runsOf: async () => {
        reads++;
        return [old, live];
      },
    };
    const tree = new HistoryTreeProvider(runs as unknown as RunServiceApi, { refreshMs: 1, settleMs: 1 });
    assert.deepStrictEqual(ids(await tree.getChildren()), ['r1:escalated'], 'no row for a run that has not started');
    live.fold({ type: 'run-started', runId: 'r2', baselineFailing: 2, baselineDiagnostics: 0, resumed: false, state: started }, T0 + 1001);
    changes.fire({ kind: 'event', event: { type: 'run-started' }, run: live });
    assert.deepStrictEqual(ids(await tree.getChildren()), ['r2:running', 'r1:escalated']);
    live.fold({ type: 'finished', outcome: 'green', state: { ...started, outcome: 'green', finishedAt: T0 + 2000 } as RunState }, T0 + 2000);
    assert.deepStrictEqual(ids(await tree.getChildren()), ['r2:green', 'r1:escalated']);
    assert.strictEqual(reads, 1, 'engine events do not reread the history file');
    changes.fire({ kind: 'history', folder });
    await tree.getChildren();
    assert.strictEqual(reads, 2, 'a history change does');
    tree.dispose();
  });
});
