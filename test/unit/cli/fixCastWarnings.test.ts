// A cast that silences a diagnostic on its own line (issue 24) is kept, since a cast can be right, but named for the
// person to look at: in the report, in the run's history record, and from there in the Loop history and the panel.
// Through the real CLI on a git copy of a project checked by tsc, with a scripted model.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { linkTypescript } from '../support/cli';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { answer, edit } from '../../support/calcAnswers';
import { buildPanelData } from '../../../src/extension/views/panelData';
import { childrenOf, describeNode, type HistoryNode } from '../../../src/extension/views/historyTreeModel';

describe('greenloop fix: a cast on the line of a diagnostic is named in the report, the history and the panel', function () {
  this.timeout(300_000);
  let h: FixHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('keeps `as any` that hides a tsc error, and names file, line and cast wherever the run is shown', async () => {
    h = await fixHarness('money');
    linkTypescript(h.project);
    // The project's one error moves to a TypeScript file tsc checks (tsconfig includes src); the tests pass either way.
    h.write('src/format.js', h.read('src/format.js').replace('@type {number}', '@type {string}'));
    h.write('src/total.ts', '// The total shown on the receipt.\nexport const total: number = (1.5).toFixed(2);\n');
    const castIt = edit('src/total.ts', 'export const total: number = (1.5).toFixed(2);', 'export const total: number = (1.5).toFixed(2) as any;', 'Tell tsc the value is fine.');
    const res = await h.fix([answer(castIt)], ['--tsc', 'on', '--max-iterations', '1']);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(res.report.outcome, 'green', 'a cast is not refused');
    const sentence = res.report.iterations[0].castWarnings?.[0] as string;
    assert.match(sentence, /^src\/total\.ts:2: the edit adds `as any` on the line where tsc TS2322 "Type 'string' is not assignable to type 'number'\." was reported; check that the cast is right and does not just hide the error\.$/);

    // What VS Code shows of the same run, from the history the CLI saved: the Loop history tree and the panel.
    const [historyFile] = fs.readdirSync(path.join(h.stateDir, 'history'));
    const record = JSON.parse(fs.readFileSync(path.join(h.stateDir, 'history', historyFile), 'utf8').trim().split('\n').pop()!);
    assert.deepStrictEqual(record.iterations[0].castWarnings, [sentence]);
    const attempt: HistoryNode = { kind: 'iteration', folder: 'file:///ws', runId: record.runId, iteration: record.iterations[0] };
    assert.match(describeNode(attempt, Date.now()).tooltip ?? '', /1 cast to check: src\/total\.ts:2 `as any`/);
    const shown = childrenOf(attempt).filter((k) => k.kind === 'cast').map((k) => describeNode(k, Date.now()));
    assert.deepStrictEqual(shown.map((v) => [v.label, v.tooltip, v.icon.id]), [['cast: src/total.ts:2 `as any`', sentence, 'warning']]);
    const panel = buildPanelData(record, 'money', []);
    assert.deepStrictEqual(panel.castWarnings, [{ n: 1, text: sentence }]);
    assert.deepStrictEqual(panel.hypotheses[0].castWarnings, [sentence]);
  });
});
