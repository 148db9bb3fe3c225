// Issue 30 item 1 through the real CLI: a wrong edit judged by its failing tests alone stays in the workspace, and the
// next attempt's real fix on the neighbouring lines of the same file must still be judged — on the best state, its
// own change carried over line by line — instead of being thrown away with the wrong edit.
import * as assert from 'assert';
import { fixHarness, type FixHarness } from '../support/fixHarness';
import { answer, edit } from '../../support/calcAnswers';

const WRONG_DIV = edit('src/calc.js', 'exports.div = (a, b) => a / b;', 'exports.div = (a, b) => Math.floor(a / b) + 1;', 'Maybe div rounds wrong.');
const FIX_THREE = edit(
  'src/calc.js',
  'exports.add = (a, b) => a - b;\nexports.sub = (a, b) => a + b;\nexports.mul = (a, b) => a + b;',
  'exports.add = (a, b) => a + b;\nexports.sub = (a, b) => a - b;\nexports.mul = (a, b) => a * b;',
  'The three operators are swapped.',
);
const FIXED = 'exports.add = (a, b) => a + b;\nexports.sub = (a, b) => a - b;\nexports.mul = (a, b) => a * b;\nexports.div = (a, b) => a / b;\n';

describe('greenloop fix: the re-judge keeps a correct fix next to a hidden wrong edit (real CLI, scripted model)', function () {
  this.timeout(240_000);
  let h: FixHarness;
  afterEach(async () => {
    await h?.close();
  });

  for (const scope of ['failing-first', 'full']) {
    it(`--verify-scope ${scope}: the fix of lines 1-3 after a wrong edit of line 4 ends green with line 4 as it was${scope === 'full' ? ' @heavy' : ''}`, async () => {
      h = await fixHarness('calc4');
      const res = await h.fix([answer(WRONG_DIV), answer(FIX_THREE)], ['--verify-scope', scope, '--patience', '3', '--max-iterations', '3']);
      assert.strictEqual(res.report?.outcome, 'green', `${res.stderr}\n${JSON.stringify(res.report?.iterations?.map((it: any) => [it.verdict, it.note]))}`);
      assert.strictEqual(h.read('src/calc.js'), FIXED);
      assert.deepStrictEqual(res.report.final.failing, []);
      const [first, second] = res.report.iterations;
      assert.strictEqual(second.verdict, 'green');
      if (scope === 'failing-first') {
        assert.strictEqual(first.verdict, 'no-progress', 'only the 3 failing tests judged the wrong edit');
        assert.match(second.note, /judged again on top of the best state, without attempt 1's edit/);
      } else {
        assert.strictEqual(first.verdict, 'regression');
      }
    });
  }

  it('when both attempts changed the very same line, rolls back and the next prompt names that line', async () => {
    h = await fixHarness('calc4');
    // Attempt 2 fixes lines 1-3 and rewrites line 4 again, still wrong: the same line attempt 1 changed.
    const sameLine = edit(
      'src/calc.js',
      'exports.add = (a, b) => a - b;\nexports.sub = (a, b) => a + b;\nexports.mul = (a, b) => a + b;\nexports.div = (a, b) => Math.floor(a / b) + 1;',
      'exports.add = (a, b) => a + b;\nexports.sub = (a, b) => a - b;\nexports.mul = (a, b) => a * b;\nexports.div = (a, b) => Math.ceil(a / b) + 1;',
      'Fix the operators, and div rounds up.',
    );
    const res = await h.fix([answer(WRONG_DIV), answer(sameLine), answer(FIX_THREE)], ['--patience', '3', '--max-iterations', '3']);
    assert.strictEqual(res.report?.outcome, 'green', res.stderr);
    const [, second, third] = res.report.iterations;
    assert.strictEqual(second.verdict, 'regression');
    assert.match(second.note, /line 4 of `src\/calc\.js`/);
    assert.match(h.prompt(2), /line 4 of `src\/calc\.js`/, 'the third prompt says which line both edits changed');
    assert.strictEqual(third.verdict, 'green');
    assert.strictEqual(h.read('src/calc.js'), FIXED);
  });
});
