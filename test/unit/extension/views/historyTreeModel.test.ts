import * as assert from 'assert';
import {
  MAX_TESTS_SHOWN, childrenOf, describeNode, formatDuration, formatStartTime, formatTokens, runsNewestFirst,
} from '../../../../src/extension/views/historyTreeModel';
import type { HistoryNode } from '../../../../src/extension/views/historyTreeModel';
import { iteration, record } from './records';

const FOLDER = 'file:///ws';
const NOW = new Date(2024, 4, 6, 18, 0).getTime();

function runNode(r = record()): Extract<HistoryNode, { kind: 'run' }> {
  return { kind: 'run', folder: FOLDER, record: r };
}

describe('history tree model', () => {
  const escalated = record({
    iterations: [
      iteration(1, { verdict: 'progress', failing: ['Cart > tax'], files: ['src/cart.ts'], hypothesis: 'Totals ignored quantity.', tokens: { prompt: 9000, completion: 3400 }, durationMs: 65_000 }),
      iteration(2, { verdict: 'regression', failing: ['Cart > tax', 'Cart > total'], files: ['src/cart.ts', 'src/tax.ts'], rolledBack: true, note: 'Broke Cart > total; rolled back.' }),
      iteration(3, { verdict: 'invalid-proposal', failing: ['Cart > tax'], afterSnapshot: null }),
    ],
    tokens: { prompt: 20_000, completion: 5_000 },
  });

  it('shows a run with its outcome icon, reason, start time and failing before → after', () => {
    const view = describeNode(runNode(escalated), NOW);
    assert.strictEqual(view.label, 'Stuck: no progress');
    assert.strictEqual(view.description, '14:03 · 3 → 1 failing');
    assert.deepStrictEqual(view.icon, { id: 'error', color: 'errorForeground' });
    assert.strictEqual(view.collapsible, 'collapsed');
    assert.strictEqual(view.contextValue, 'greenloop.run.escalated');
    assert.match(view.tooltip ?? '', /^Stuck: no progress: No progress in the last 2 attempts/);
    assert.match(view.tooltip ?? '', /3 attempts · 25k tokens · scripted/);
  });

  // Issue 22 item 7: a run stopped before any test run showed "0 → 0 failing" in the Loop history.
  it('shows no count for a run whose tests never gave one', () => {
    const unreachable = record({ reason: 'actor-error', baselineFailing: [], finalFailing: [], finalState: 'baseline', unmeasured: true });
    const view = describeNode(runNode(unreachable), NOW);
    assert.strictEqual(view.label, 'The model failed');
    assert.strictEqual(view.description, '14:03 · no test count');
  });

  it('gives each outcome its own icon and keeps a running run expanded', () => {
    const icons = ['green', 'escalated', 'cancelled', 'error', 'running'].map((outcome) => describeNode(runNode(record({ outcome, reason: null })), NOW).icon.id);
    assert.deepStrictEqual(icons, ['pass-filled', 'error', 'circle-slash', 'bug', 'sync~spin']);
    assert.strictEqual(new Set(icons).size, icons.length);
    assert.strictEqual(describeNode(runNode(record({ outcome: 'running' })), NOW).collapsible, 'expanded');
    assert.strictEqual(describeNode(runNode(record({ outcome: 'green', reason: null })), NOW).label, 'Green');
  });

  it('lists a report entry first, then one node per attempt', () => {
    const kids = childrenOf(runNode(escalated));
    assert.deepStrictEqual(kids.map((k) => k.kind), ['report', 'iteration', 'iteration', 'iteration']);
    const report = describeNode(kids[0], NOW);
    assert.strictEqual(report.label, 'Open escalation report');
    assert.deepStrictEqual(report.command, { command: 'greenloop.openRunPanel', title: 'Open run report', arguments: [FOLDER, 'run-1'] });
  });

  it('describes attempts with verdict icon, failing count, tokens, duration and the hypothesis as tooltip', () => {
    const [, first, second, third] = childrenOf(runNode(escalated)).map((k) => describeNode(k, NOW));
    assert.strictEqual(first.label, 'Attempt 1: progress');
    assert.strictEqual(first.description, '1 failing · 12k tok · 1:05');
    assert.match(first.tooltip ?? '', /^Hypothesis: Totals ignored quantity\./);
    assert.strictEqual(first.icon.id, 'check');
    assert.strictEqual(second.label, 'Attempt 2: regression');
    assert.deepStrictEqual(second.icon, { id: 'error', color: 'charts.red' });
    assert.match(second.tooltip ?? '', /The model gave no hypothesis\.[\s\S]*Broke Cart > total[\s\S]*rolled back/);
    assert.strictEqual(third.label, 'Attempt 3: edit refused');
    assert.strictEqual(third.description, '1 failing · 1.2k tok · 4.2s');
  });

  it('puts failing tests and changed files under an attempt; a changed file opens its diff', () => {
    const second = childrenOf(runNode(escalated))[2];
    const kids = childrenOf(second);
    assert.deepStrictEqual(kids.map((k) => describeNode(k, NOW).label), ['Cart > tax', 'Cart > total', 'src/cart.ts', 'src/tax.ts']);
    const file = describeNode(kids[3], NOW);
    assert.deepStrictEqual(file.command, { command: 'greenloop.openIterationDiff', title: 'Show change', arguments: [FOLDER, 'run-1', 2, 'src/tax.ts'] });
    assert.strictEqual(file.description, 'changed, rolled back');
    assert.strictEqual(file.resourcePath, 'src/tax.ts');
    assert.deepStrictEqual(describeNode(kids[0], NOW).icon, { id: 'close', color: 'testing.iconFailed' });
  });

  it('names the tests an attempt made disappear, and the flaky ones, apart from the failing ones', () => {
    const it1 = iteration(1, { verdict: 'regression', failing: ['Cart > tax', 'Cart > rounding'], missing: ['Cart > total'], flaky: ['Cart > rounding'] });
    const kids = childrenOf({ kind: 'iteration', folder: FOLDER, runId: 'r', iteration: it1 }).map((k) => describeNode(k, NOW));
    assert.deepStrictEqual(kids.map((k) => [k.label, k.description ?? '']), [['Cart > total', 'missing'], ['Cart > tax', ''], ['Cart > rounding', 'flaky']]);
    assert.match(kids[0].tooltip ?? '', /counted as broken, never as fixed/);
    assert.match(kids[2].tooltip ?? '', /neither as progress nor as regression/);
    assert.strictEqual(new Set(kids.map((k) => k.id)).size, 3);
  });

  it('offers no diff for an attempt that applied nothing', () => {
    const it3 = iteration(3, { afterSnapshot: null, files: ['src/x.ts'] });
    const file = describeNode({ kind: 'file', folder: FOLDER, runId: 'r', iteration: it3, file: 'src/x.ts' }, NOW);
    assert.strictEqual(file.command, undefined);
  });

  it('caps the failing tests shown under an attempt and says how many more', () => {
    const failing = Array.from({ length: MAX_TESTS_SHOWN + 7 }, (_, i) => `T ${i}`);
    const kids = childrenOf({ kind: 'iteration', folder: FOLDER, runId: 'r', iteration: iteration(1, { failing, files: ['a.ts'] }) });
    assert.strictEqual(kids.length, MAX_TESTS_SHOWN + 2);
    assert.strictEqual(describeNode(kids[MAX_TESTS_SHOWN], NOW).label, '…and 7 more failing');
    assert.strictEqual(kids[MAX_TESTS_SHOWN + 1].kind, 'file');
  });

  it('gives every node a unique, stable id so expansion survives refreshes', () => {
    const ids: string[] = [];
    const walk = (n: HistoryNode) => {
      ids.push(describeNode(n, NOW).id);
      childrenOf(n).forEach(walk);
    };
    walk(runNode(escalated));
    assert.strictEqual(new Set(ids).size, ids.length);
    const again: string[] = [];
    const walk2 = (n: HistoryNode) => {
      again.push(describeNode(n, NOW).id);
      childrenOf(n).forEach(walk2);
    };
    walk2(runNode(structuredClone(escalated)));
    assert.deepStrictEqual(again, ids);
  });

  it('orders runs newest first, one entry per run id, the live run replacing its stored record', () => {
    const old = record({ runId: 'a', startedAt: 1000 });
    const first = record({ runId: 'b', startedAt: 2000, outcome: 'escalated' });
    const resumed = record({ runId: 'b', startedAt: 2000, outcome: 'green' });
    const live = record({ runId: 'c', startedAt: 3000, outcome: 'running' });
    assert.deepStrictEqual(runsNewestFirst([old, first, resumed], live).map((r) => `${r.runId}:${r.outcome}`), ['c:running', 'b:green', 'a:escalated']);
    const liveB = record({ runId: 'b', startedAt: 2000, outcome: 'running' });
    assert.deepStrictEqual(runsNewestFirst([old, first], liveB).map((r) => `${r.runId}:${r.outcome}`), ['b:running', 'a:escalated']);
  });

  it('formats start times, tokens and durations compactly', () => {
    assert.strictEqual(formatStartTime(new Date(2024, 4, 6, 9, 5).getTime(), NOW), '09:05');
    assert.strictEqual(formatStartTime(new Date(2024, 0, 15, 23, 59).getTime(), NOW), 'Jan 15 23:59');
    assert.strictEqual(formatStartTime(new Date(2023, 11, 31, 8, 0).getTime(), NOW), '2023-12-31 08:00');
    assert.deepStrictEqual([0, 999, 1200, 12_345, 200_000, 1_500_000].map(formatTokens), ['0', '999', '1.2k', '12k', '200k', '1.5M']);
    assert.deepStrictEqual([400, 4200, 59_940, 60_000, 134_000].map(formatDuration), ['0.4s', '4.2s', '59.9s', '1:00', '2:14']);
  });

  it("shows an agent's attempt as its own node, which opens its transcript, and each file put back", () => {
    const agentRun = record({
      iterations: [iteration(1, {
        files: ['src/calc.js'],
        agent: { requests: 7, gatewayAnswers: 2, stoppedBy: 'request-cap', exitCode: 0 },
        reverted: [{ path: 'test/calc.test.js', reason: 'Test files are protected.' }],
      })],
    });
    const attempt = childrenOf(runNode(agentRun))[1];
    assert.strictEqual(describeNode(attempt, NOW).collapsible, 'collapsed');
    const kids = childrenOf(attempt);
    assert.deepStrictEqual(kids.map((k) => k.kind), ['agent', 'reverted', 'file']);
    const agent = describeNode(kids[0], NOW);
    assert.strictEqual(agent.label, 'agent: 7 requests (2 answered by Greenloop: request-cap), exit 0');
    assert.deepStrictEqual(agent.command, { command: 'greenloop.showAgentTranscript', title: 'Show agent transcript', arguments: [FOLDER, 'run-1', 1] });
    assert.match(agent.tooltip ?? '', /last message.*output/);
    const put = describeNode(kids[1], NOW);
    assert.strictEqual(put.label, 'put back: test/calc.test.js');
    assert.strictEqual(put.description, 'Test files are protected.');
    assert.notStrictEqual(put.id, describeNode(kids[2], NOW).id);
    // An agent stopped before it exited, and whose requests the gateway never answered itself, says so too.
    const stopped = record({ iterations: [iteration(1, { agent: { requests: 1, gatewayAnswers: 0, stoppedBy: null, exitCode: null } })] });
    assert.strictEqual(describeNode(childrenOf(childrenOf(runNode(stopped))[1])[0], NOW).label, 'agent: 1 request, stopped before it exited');
  });

  it('shows a protected test file the tests rewrote as undone, opening what was written next to what was tested', () => {
    const run = record({
      iterations: [iteration(1, {
        files: ['src/calc.js'], verdict: 'regression', rolledBack: true, afterSnapshot: 'run-1/2',
        testsWrote: { snapshot: 'run-1/3', paths: ['test/calc.test.js'] },
      })],
    });
    const kids = childrenOf(childrenOf(runNode(run))[1]);
    assert.deepStrictEqual(kids.map((k) => k.kind), ['testsWrote', 'file']);
    const undone = describeNode(kids[0], NOW);
    assert.strictEqual(undone.label, 'undone: test/calc.test.js');
    assert.strictEqual(undone.description, 'rewritten while the tests ran');
    assert.match(undone.tooltip ?? '', /if you saved this file yourself meanwhile, your version is there/);
    assert.deepStrictEqual(undone.command, { command: 'greenloop.openIterationDiff', title: 'Show what was written', arguments: [FOLDER, 'run-1', 1, 'test/calc.test.js'] });
    assert.notStrictEqual(undone.id, describeNode(kids[1], NOW).id);
  });

  it('names what changed outside the workspace and was left as it is as a warning under the attempt, its why in the tooltip', () => {
    const run = record({
      iterations: [iteration(1, {
        files: [], verdict: 'green', failing: [],
        outsideWarnings: [{ where: '../build.log', what: 'created', why: 'next to the workspace, where Greenloop saves nothing' }],
      })],
    });
    const attempt = childrenOf(runNode(run))[1];
    assert.strictEqual(describeNode(attempt, NOW).collapsible, 'collapsed', 'a warning alone makes the attempt open');
    const kids = childrenOf(attempt);
    assert.deepStrictEqual(kids.map((k) => k.kind), ['outside']);
    const left = describeNode(kids[0], NOW);
    assert.strictEqual(left.label, 'outside: ../build.log created');
    assert.strictEqual(left.description, 'left as it is');
    assert.deepStrictEqual(left.icon, { id: 'warning', color: 'list.warningForeground' });
    assert.match(left.tooltip ?? '', /^\.\.\/build\.log created while the agent ran attempt 1 \(next to the workspace, where Greenloop saves nothing\)\. Greenloop can neither undo this nor tell the agent's write from another program's, so it was left as it is and the attempt stands/);
  });

  it('names a cast the attempt added on a diagnostic\'s line as a warning under the attempt: file, line and cast in the label, the sentence in the tooltip', () => {
    const sentence = 'src/money.ts:3: the edit adds `as any` on the line where tsc TS2322 "Type \'string\' is not assignable to type \'number\'." was reported; check that the cast is right and does not just hide the error.';
    const run = record({ iterations: [iteration(1, { files: ['src/money.ts'], verdict: 'green', failing: [], castWarnings: [sentence] })] });
    const attempt = childrenOf(runNode(run))[1];
    assert.match(describeNode(attempt, NOW).tooltip ?? '', /1 cast to check: src\/money\.ts:3 `as any`/);
    const kids = childrenOf(attempt);
    assert.deepStrictEqual(kids.map((k) => k.kind), ['cast', 'file']);
    const cast = describeNode(kids[0], NOW);
    assert.strictEqual(cast.label, 'cast: src/money.ts:3 `as any`');
    assert.strictEqual(cast.description, 'check it');
    assert.deepStrictEqual(cast.icon, { id: 'warning', color: 'list.warningForeground' });
    assert.strictEqual(cast.tooltip, sentence);
    assert.strictEqual(cast.resourcePath, 'src/money.ts');
    assert.deepStrictEqual(cast.command, { command: 'greenloop.openIterationDiff', title: 'Show change', arguments: [FOLDER, 'run-1', 1, 'src/money.ts'] });
    assert.notStrictEqual(cast.id, describeNode(kids[1], NOW).id);
    // A cast alone (an agent's attempt that changed no file Greenloop lists) still opens the attempt.
    const alone = childrenOf(runNode(record({ iterations: [iteration(1, { castWarnings: [sentence] })] })))[1];
    assert.strictEqual(describeNode(alone, NOW).collapsible, 'collapsed');
  });

  // Issue 33: the project's own fixers are attempt 0, their own row with their diff, no model hypothesis.
  it('shows the project\'s fixers as their own row, with what they ran and the files they changed to diff', () => {
    const fixers = iteration(0, { actor: 'autofix', verdict: 'progress', files: ['src/a.js'], tokens: { prompt: 0, completion: 0 }, note: '1 diagnostic fixed', commands: [{ tool: 'ESLint', command: 'npx eslint --fix src/a.js', ms: 812, exitCode: 1 }] });
    const kids = childrenOf(runNode(record({ iterations: [fixers, iteration(1)] })));
    const row = describeNode(kids[1], NOW);
    assert.strictEqual(row.label, "Project's fixers (no model): progress");
    assert.match(row.tooltip ?? '', /ran the project's own fixers before the first model call: npx eslint --fix src\/a\.js \(0\.8s\)/);
    assert.doesNotMatch(row.tooltip ?? '', /hypothesis/);
    assert.strictEqual(describeNode(kids[2], NOW).label, 'Attempt 1: progress');
    const file = describeNode(childrenOf(kids[1]).find((k) => k.kind === 'file')!, NOW);
    assert.deepStrictEqual(file.command?.arguments, [FOLDER, 'run-1', 0, 'src/a.js']);
  });

  it('survives records with unknown outcomes or verdicts read back from disk', () => {
    const odd = record({ outcome: 'exploded', reason: 'gremlins', iterations: [iteration(1, { verdict: 'weird' })] });
    const view = describeNode(runNode(odd), NOW);
    assert.strictEqual(view.icon.id, 'question');
    assert.strictEqual(view.label, 'Stopped');
    const it = describeNode(childrenOf(runNode(odd))[1], NOW);
    assert.strictEqual(it.label, 'Attempt 1: weird');
  });
});
