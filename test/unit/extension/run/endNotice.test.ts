// What a run tells the person at its end (and when it could not start), as endNotice.ts decides it without VS Code:
// the level, the sentence and the buttons, per outcome, reason and attempt count.
import * as assert from 'assert';
import { endOfRunNotice, notStartedNotice, toastNotice } from '../../../../src/extension/run/endNotice';
import type { EndNotice, EndState } from '../../../../src/extension/run/endNotice';
import { TOAST_MAX_CHARS } from '../../../../src/extension/run/toastText';
import { STOPPED_BEFORE_BASELINE } from '../../../../src/core/run/report';

function ended(over: Partial<EndState> & { attempts?: number; focus?: string[] }): EndState {
  const { attempts = 0, focus, ...rest } = over;
  return {
    outcome: 'escalated', reason: 'stagnation', finalState: 'best',
    iterations: Array.from({ length: attempts }, (_, i) => ({ n: i + 1 })), config: { focus },
    ...rest,
  } as unknown as EndState;
}

const labels = (n: EndNotice) => (n.kind === 'setup' ? n.actions.map((a) => (a.setting ? `${a.label} @ ${a.setting}` : a.label)) : []);

describe('the notice at the end of a run', () => {
  it('green: says all tests pass after how many attempts, with Open run', () => {
    assert.deepStrictEqual(endOfRunNotice(ended({ outcome: 'green', reason: null, attempts: 3 }), ''), {
      kind: 'message', level: 'info', text: 'Greenloop: all tests pass after 3 attempts.', buttons: ['Open run'],
    });
    const one = endOfRunNotice(ended({ outcome: 'green', reason: null, attempts: 1 }), '');
    assert.strictEqual(one.kind === 'message' && one.text, 'Greenloop: all tests pass after 1 attempt.');
  });

  it('green on focused tests: names the focused test, or tests, not the whole suite', () => {
    const one = endOfRunNotice(ended({ outcome: 'green', reason: null, attempts: 2, focus: ['Cart > tax'] }), '');
    assert.strictEqual(one.kind === 'message' && one.text, 'Greenloop: the focused test passes after 2 attempts.');
    const two = endOfRunNotice(ended({ outcome: 'green', reason: null, attempts: 2, focus: ['Cart > tax', 'Cart > total'] }), '');
    assert.strictEqual(two.kind === 'message' && two.text, 'Greenloop: the focused tests pass after 2 attempts.');
  });

  it('escalated after attempts, for any reason: opens the panel, whatever the reason', () => {
    for (const reason of ['stagnation', 'cycle', 'repeated-proposal', 'budget-iterations', 'budget-tokens', 'budget-time', 'user-edit', 'actor-error', 'verify-error'] as const) {
      assert.deepStrictEqual(endOfRunNotice(ended({ reason, attempts: 2 }), 'Stopped.'), { kind: 'panel' }, reason);
    }
  });

  it('escalated by the cross-run guard before any model call: the reason with Run anyway and Open the last run, waiting for the answer', () => {
    const text = 'The last 2 runs on this workspace stopped on the same failing tests; nothing was asked of the model.';
    assert.deepStrictEqual(endOfRunNotice(ended({ crossRun: { runs: 2 } as unknown as EndState['crossRun'] }), text), {
      kind: 'message', level: 'warning', text, buttons: ['Run anyway', 'Open the last run'], waitsForChoice: true,
    });
  });

  it('a model that cannot be used, before any attempt: one sentence and the button that fixes it', () => {
    const key = endOfRunNotice(ended({ reason: 'actor-error' }), 'The model server refused the request (401): check the API key.');
    assert.strictEqual(key.kind === 'setup' && key.text, 'Greenloop: The model server refused the request (401): check the API key.');
    assert.deepStrictEqual(labels(key), ['Set API key', 'Open Settings @ greenloop.model.baseUrl']);
    const gone = endOfRunNotice(ended({ reason: 'actor-error' }), 'The model Fake Model is no longer available; choose another with "Greenloop: Select model".');
    assert.deepStrictEqual(labels(gone), ['Select model']);
  });

  it('an agent CLI that fails before its first attempt gets the actor buttons; after attempts, the panel', () => {
    const text = 'The agent CLI qwen exited with code 1 before answering: connection refused.';
    const early = endOfRunNotice(ended({ reason: 'actor-error' }), text);
    assert.strictEqual(early.kind, 'setup');
    assert.deepStrictEqual(labels(early), ['Open Settings @ greenloop.model.baseUrl', 'Select model']);
    assert.deepStrictEqual(endOfRunNotice(ended({ reason: 'actor-error', attempts: 1 }), text), { kind: 'panel' });
  });

  it('no test count (the tests could not run at the baseline): the button follows where the test command came from', () => {
    const text = 'The test command `npm run test:ci` cannot run: package.json in /ws has no "test:ci" script; add that script or choose another test command.';
    assert.deepStrictEqual(labels(endOfRunNotice(ended({ reason: 'verify-error' }), text, 'task "test"')), ['Open tasks.json']);
    assert.deepStrictEqual(labels(endOfRunNotice(ended({ reason: 'verify-error' }), text, 'setting greenloop.testCommand')), ['Open Settings @ greenloop.testCommand']);
    assert.deepStrictEqual(labels(endOfRunNotice(ended({ reason: 'verify-error' }), text)), ['Open tasks.json', 'Open Settings @ greenloop.testCommand']);
  });

  it('cancelled: where the workspace is once an attempt ran; unchanged before any edit', () => {
    assert.deepStrictEqual(endOfRunNotice(ended({ outcome: 'cancelled', reason: null, attempts: 2, finalState: 'best' }), ''), {
      kind: 'message', level: 'info', text: 'Greenloop stopped; the workspace is at the best state.', buttons: ['Open run'],
    });
    const baseline = endOfRunNotice(ended({ outcome: 'cancelled', reason: null, attempts: 1, finalState: 'baseline' }), '');
    assert.strictEqual(baseline.kind === 'message' && baseline.text, 'Greenloop stopped; the workspace is at the baseline (as before the run).');
    const early = endOfRunNotice(ended({ outcome: 'cancelled', reason: null, attempts: 0, finalState: 'best' }), '');
    assert.strictEqual(early.kind === 'message' && early.text, 'Greenloop stopped before any edit; the workspace is unchanged.');
  });

  it('an internal error: an error toast with Show output and Open run; the reason goes to the log', () => {
    assert.deepStrictEqual(endOfRunNotice(ended({ outcome: 'error', reason: null, attempts: 1 }), 'TypeError: boom'), {
      kind: 'message', level: 'error', text: 'Greenloop stopped on an internal error.', buttons: ['Show output', 'Open run'], logError: 'TypeError: boom',
    });
  });
});

describe('the notice when a run does not start', () => {
  it('stopped before the baseline: says nothing was changed', () => {
    assert.deepStrictEqual(notStartedNotice('The operation was aborted.', true), { kind: 'message', level: 'info', text: `Greenloop: ${STOPPED_BEFORE_BASELINE}`, buttons: [] });
  });

  it('a setup problem: the message and the buttons that fix it', () => {
    const trust = notStartedNotice('Greenloop runs your tests, which runs code from this workspace, so it needs a trusted workspace; trust it with "Workspaces: Manage Workspace Trust" and try again.', false);
    assert.strictEqual(trust.kind, 'setup');
    assert.deepStrictEqual(labels(trust), ['Manage Workspace Trust']);
    const noTests = notStartedNotice('No test command for cart: add a Test task (Terminal › Configure Tasks, group "test"), set greenloop.testCommand, or add a "test" script to package.json.', false);
    assert.deepStrictEqual(labels(noTests), ['Open tasks.json', 'Open Settings @ greenloop.testCommand']);
  });

  it('any other error: an error toast, cut at a sentence end with Show output when long', () => {
    assert.deepStrictEqual(notStartedNotice('Another run holds this folder.', false), { kind: 'message', level: 'error', text: 'Another run holds this folder.', buttons: [] });
    const long = `Could not open the snapshot store. ${'The repository under the state folder is locked by another process. '.repeat(5)}`;
    const cut = notStartedNotice(long, false);
    assert.ok(cut.kind === 'message' && cut.text.length <= TOAST_MAX_CHARS && cut.text.length < long.length, JSON.stringify(cut));
    assert.deepStrictEqual(cut.kind === 'message' && cut.buttons, ['Show output']);
  });

  it('a warning toast keeps its level', () => {
    assert.deepStrictEqual(toastNotice('warning', 'Greenloop: 2 lines of the history could not be read.'), { kind: 'message', level: 'warning', text: 'Greenloop: 2 lines of the history could not be read.', buttons: [] });
  });
});
