// When the Loop history redraws: at most every refreshMs during a busy run, and once more after the last event.
import * as assert from 'assert';
import { EventEmitter } from '../support/fakeVscode';
import { HistoryTreeProvider } from '../../../../src/extension/views/historyTree';
import type { RunServiceApi } from '../../../../src/extension/runServiceApi';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function provider(timing = { refreshMs: 20, settleMs: 150 }) {
  const changes = new EventEmitter<unknown>();
  const runs = { onDidChange: changes.event, active: undefined, latest: undefined, folders: () => [], history: async () => [] };
  const tree = new HistoryTreeProvider(runs as unknown as RunServiceApi, timing);
  let redraws = 0;
  tree.onDidChangeTreeData(() => redraws++);
  const burst = (n: number) => {
    for (let i = 0; i < n; i++) changes.fire({ kind: 'event', event: { type: 'iteration-started', n: i + 1, max: 8 }, run: {} });
  };
  return { tree, burst, redraws: () => redraws };
}

describe('Loop history refresh', () => {
  it('redraws once for a burst of engine events, then once more after they stop, so a row VS Code left open and empty fills in', async () => {
    const p = provider();
    p.burst(6);
    await sleep(80);
    assert.equal(p.redraws(), 1, 'one redraw for the burst');
    await sleep(300);
    assert.equal(p.redraws(), 2, 'one settling redraw after the burst, and no more');
    await sleep(300);
    assert.equal(p.redraws(), 2, 'the settling redraw does not schedule another');
    p.tree.dispose();
  });

  it('keeps pushing the settling redraw back while a run is still sending events', async () => {
    const p = provider({ refreshMs: 20, settleMs: 200 });
    for (let i = 0; i < 5; i++) {
      p.burst(2);
      await sleep(60);
    }
    assert.equal(p.redraws(), 5, 'one redraw per burst, no settling redraw yet');
    await sleep(350);
    assert.equal(p.redraws(), 6);
    p.tree.dispose();
  });

  it('redraws nothing after it is disposed', async () => {
    const p = provider();
    p.burst(3);
    await sleep(60);
    p.tree.dispose();
    await sleep(300);
    assert.equal(p.redraws(), 1);
  });
});
