// Issue 41: an attempt that asked for several answers shows each under it in the Loop history — chosen or not, its
// verdict or why it was refused, why it lost — and each answer's changed files open its own diff.
import * as assert from 'assert';
import { childrenOf, describeNode } from '../../../../src/extension/views/historyTreeModel';
import type { HistoryNode } from '../../../../src/extension/views/historyTreeModel';
import { candidate, iteration, record } from './records';

const FOLDER = 'file:///ws';
const NOW = new Date(2024, 4, 6, 18, 0).getTime();

describe('history tree: the answers of an attempt with several candidates', () => {
  const answers = [
    candidate(1, { verdict: 'green', failing: 0, chosen: true, lostBecause: undefined, note: 'the failing tests pass', files: ['src/cart.ts', 'src/tax.ts'] }),
    candidate(2, { verdict: 'no-progress', failing: 2, newlyFailing: 1, lostBecause: 'answer 1 turns the failing tests green', note: 'the failing tests still fail, and 1 other test now fails' }),
    candidate(3, { verdict: 'refused', failing: null, files: ['test/cart.test.ts'], snapshot: undefined, lostBecause: 'it was refused', note: 'test/cart.test.ts is a protected test file' }),
  ];
  const run = record({ iterations: [iteration(1, { verdict: 'green', failing: [], files: ['src/cart.ts', 'src/tax.ts'], candidates: answers })] });
  const attempt = childrenOf({ kind: 'run', folder: FOLDER, record: run })[1];

  it('lists every answer first under its attempt, with its verdict, the chosen one marked, and why each other lost', () => {
    const kids = childrenOf(attempt);
    assert.deepStrictEqual(kids.map((k) => k.kind), ['candidate', 'candidate', 'candidate', 'file', 'file']);
    const [chosen, lost, refused] = kids.slice(0, 3).map((k) => describeNode(k, NOW));
    assert.strictEqual(chosen.label, 'Answer 1 (chosen): green');
    assert.strictEqual(chosen.description, '0 failing · 1.1k tok');
    assert.deepStrictEqual(chosen.icon, { id: 'pass-filled', color: 'testing.iconPassed' });
    assert.match(chosen.tooltip ?? '', /chosen: it went on to the whole suite/);
    assert.doesNotMatch(chosen.tooltip ?? '', /Not chosen/);

    assert.strictEqual(lost.label, 'Answer 2: no progress');
    assert.strictEqual(lost.description, '2 failing, 1 newly · 1.1k tok');
    assert.match(lost.tooltip ?? '', /Not chosen: answer 1 turns the failing tests green\./);

    assert.strictEqual(refused.label, 'Answer 3: refused');
    assert.strictEqual(refused.description, 'test/cart.test.ts is a protected test file · 1.1k tok', 'a refused answer says why on its row');
    assert.strictEqual(refused.collapsible, 'none', 'never applied: no diff to open');
    assert.strictEqual(new Set([chosen.id, lost.id, refused.id]).size, 3);
  });

  it("opens an answer's change in a diff editor, file by file", () => {
    const chosen = childrenOf(attempt)[0];
    assert.strictEqual(describeNode(chosen, NOW).collapsible, 'collapsed');
    const files = childrenOf(chosen).map((k) => describeNode(k, NOW));
    assert.deepStrictEqual(files.map((f) => f.label), ['src/cart.ts', 'src/tax.ts']);
    assert.deepStrictEqual(files[1].command, { command: 'greenloop.openIterationDiff', title: 'Show change', arguments: [FOLDER, 'run-1', 1, 'src/tax.ts', 1] });
    assert.strictEqual(files[1].resourcePath, 'src/tax.ts');
    const attemptFile = describeNode(childrenOf(attempt)[4], NOW);
    assert.notStrictEqual(files[1].id, attemptFile.id, "an answer's file and the attempt's own are two rows");
  });

  it('opens an attempt whose only children are its answers', () => {
    const alone = record({ iterations: [iteration(1, { verdict: 'no-progress', candidates: [candidate(1, { chosen: true, verdict: 'refused', snapshot: undefined, files: [] }), candidate(2, { verdict: 'missing', snapshot: undefined, files: [] })] })] });
    const node = childrenOf({ kind: 'run', folder: FOLDER, record: alone })[1] as HistoryNode;
    assert.strictEqual(describeNode(node, NOW).collapsible, 'collapsed');
    assert.deepStrictEqual(childrenOf(node).map((k) => describeNode(k, NOW).label), ['Answer 1 (chosen): refused', 'Answer 2: did not arrive']);
  });
});
