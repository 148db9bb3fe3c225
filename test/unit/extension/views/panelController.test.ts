import * as assert from 'assert';
import { PanelController } from '../../../../src/extension/views/panelController';
import type { PanelPorts } from '../../../../src/extension/views/panelController';
import { buildPanelData } from '../../../../src/extension/views/panelData';
import type { HostMessage } from '../../../../src/shared/protocol';
import { record } from './records';

interface Harness {
  controller: PanelController;
  posted: HostMessage[];
  calls: string[];
  ports: PanelPorts;
}

function harness(over: Partial<PanelPorts> = {}): Harness {
  const posted: HostMessage[] = [];
  const calls: string[] = [];
  const ports: PanelPorts = {
    post: (m) => posted.push(m),
    load: async () => ({ data: buildPanelData(record(), 'cart', []) }),
    retry: async (hint, extra) => void calls.push(`retry ${hint} ${JSON.stringify(extra)}`),
    rollback: async (to) => void calls.push(`rollback ${to}`),
    accept: async () => void calls.push('accept'),
    setupAction: async (id) => void calls.push(`setup ${id}`),
    openDiff: async (path, side) => void calls.push(`diff ${path} ${side}`),
    close: () => void calls.push('close'),
    ...over,
  };
  return { controller: new PanelController(ports), posted, calls, ports };
}

const types = (posted: HostMessage[]) => posted.map((m) => (m.type === 'status' ? `status:${m.level}:${m.message}` : m.type === 'busy' ? `busy:${m.busy}` : m.type));

describe('escalation panel controller (host side of the protocol)', () => {
  it('sends nothing until the webview says ready, then the run and the busy state', async () => {
    const h = harness();
    await h.controller.refresh();
    await h.controller.receive({ type: 'accept' });
    assert.deepStrictEqual(h.posted, []);
    assert.deepStrictEqual(h.calls, ['accept'], 'actions still run; only their report waits for a webview');
    await h.controller.receive({ type: 'ready' });
    assert.deepStrictEqual(types(h.posted), ['show', 'busy:false']);
    assert.strictEqual((h.posted[0] as Extract<HostMessage, { type: 'show' }>).data.reasonTitle, 'Stuck: no progress');
  });

  it('sends again after a hidden panel comes back and says ready again, and nothing while hidden', async () => {
    const h = harness();
    await h.controller.receive({ type: 'ready' });
    h.controller.hidden();
    await h.controller.refresh();
    assert.strictEqual(h.posted.length, 2);
    await h.controller.receive({ type: 'ready' });
    assert.deepStrictEqual(types(h.posted), ['show', 'busy:false', 'show', 'busy:false']);
  });

  it('ignores unknown and malformed messages', async () => {
    const h = harness();
    await h.controller.receive({ type: 'ready' });
    for (const m of [null, 'accept', { type: 'rm -rf' }, { type: 'rollback', to: 'HEAD~1' }, { type: 'retry', hint: 'x', extra: { iterations: 0, tokens: 0, minutes: 0 } }]) {
      await h.controller.receive(m);
    }
    assert.deepStrictEqual(h.calls, []);
    assert.strictEqual(h.posted.length, 2);
  });

  it('runs each action with what the person chose and reports it', async () => {
    const h = harness();
    await h.controller.receive({ type: 'ready' });
    h.posted.length = 0;
    await h.controller.receive({ type: 'retry', hint: ' rounding ', extra: { iterations: 3, tokens: 30000, minutes: 9 } });
    await h.controller.receive({ type: 'rollback', to: 'baseline' });
    await h.controller.receive({ type: 'accept' });
    await h.controller.receive({ type: 'close' });
    assert.deepStrictEqual(h.calls, ['retry rounding {"iterations":3,"tokens":30000,"minutes":9}', 'rollback baseline', 'accept', 'close']);
    assert.deepStrictEqual(types(h.posted), [
      'busy:true', 'status:info:Retrying. This grants 3 more attempts, 30,000 more tokens and 9 more minutes.', 'busy:false', 'show', 'busy:false', 'status:info:Retry ended: Stuck: no progress.',
      'busy:true', 'busy:false', 'show', 'busy:false', 'status:info:',
      'busy:true', 'busy:false', 'show', 'busy:false', 'status:info:',
    ]);
  });

  it('runs one action at a time: a second click while busy is dropped', async () => {
    let release: () => void = () => undefined;
    const h = harness({ rollback: (to) => new Promise<void>((resolve) => { h.calls.push(`rollback ${to}`); release = resolve; }) });
    await h.controller.receive({ type: 'ready' });
    const first = h.controller.receive({ type: 'rollback', to: 'best' });
    await h.controller.receive({ type: 'rollback', to: 'best' });
    await h.controller.receive({ type: 'accept' });
    release();
    await first;
    assert.deepStrictEqual(h.calls, ['rollback best']);
  });

  it('shows a failed action or an unloadable run as an error sentence, and recovers', async () => {
    let missing = false;
    const h = harness({
      accept: async () => { throw new Error('The workspace changed since the run ended; save or revert your edits, then accept again.'); },
      load: async () => (missing ? { error: 'Run run-1 is no longer in the history.' } : { data: buildPanelData(record(), 'cart', []) }),
    });
    await h.controller.receive({ type: 'ready' });
    await h.controller.receive({ type: 'accept' });
    assert.ok(types(h.posted).includes('status:error:The workspace changed since the run ended; save or revert your edits, then accept again.'));
    assert.strictEqual(types(h.posted).filter((t) => t === 'busy:false').length >= 2, true);
    missing = true;
    await h.controller.refresh();
    assert.strictEqual(types(h.posted).at(-1), 'status:error:Run run-1 is no longer in the history.');
  });

  it('goes quiet once disposed', async () => {
    const h = harness();
    await h.controller.receive({ type: 'ready' });
    h.controller.dispose();
    await h.controller.refresh();
    await h.controller.receive({ type: 'accept' });
    assert.strictEqual(h.posted.length, 2);
    assert.deepStrictEqual(h.calls, []);
  });

  it('a setup button runs its action at once, without a busy state; an unknown one is ignored', async () => {
    const h = harness();
    await h.controller.receive({ type: 'ready' });
    await h.controller.receive({ type: 'setupAction', id: 'setApiKey' });
    await h.controller.receive({ type: 'setupAction', id: 'workbench.action.terminal.sendSequence' });
    assert.deepStrictEqual(h.calls, ['setup setApiKey']);
    assert.deepStrictEqual(types(h.posted), ['show', 'busy:false']);
  });
});

