// Issue 32 through the real CLI: an imperfect answer lands, and the report says what placed each block (`matchedBy`);
// one that cannot land is refused with a note that names the hunk and quotes the file, which the next prompt carries.
import * as assert from 'assert';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { answer } from '../../support/calcAnswers';

const F = '```';

describe('greenloop fix: imperfect answers land and the report counts what placed them (real CLI, scripted model)', function () {
  this.timeout(300_000);
  let h: FixHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('a hunk that does not fit is refused by name; a diff with stale line numbers and an answer with drifted indentation land', async () => {
    h = await fixHarness('calc');
    const badHunk = `The operators are wrong.\n\n${F}diff\n--- a/src/calc.js\n+++ b/src/calc.js\n@@ -2,3 +2,3 @@\n function add(a, b) {\n-  return a - c;\n+  return a + b;\n }\n${F}\n`;
    const staleDiff = `add subtracts.\n\n${F}diff\n--- a/src/calc.js\n+++ b/src/calc.js\n@@ -30,3 +30,3 @@\n function add(a, b) {\n-  return a - b;\n+  return a + b;\n }\n${F}\n`;
    const drifted = `mul adds.\n\n${F}js src/calc.js\n<<<<<<< SEARCH\nfunction mul(a, b) {\n\treturn a + b;\n}\n=======\nfunction mul(a, b) {\n\treturn a * b;\n}\n>>>>>>> REPLACE\n${F}\n`;
    const res = await h.fix([answer(badHunk), answer(staleDiff), answer(drifted)], ['--max-iterations', '4']);
    assert.strictEqual(res.report.outcome, 'green', res.stderr);
    const [first, second, third] = res.report.iterations;
    assert.strictEqual(first.verdict, 'invalid-proposal');
    assert.match(first.note, /Hunk 1 \(`@@ -2,3 \+2,3 @@`\) of the diff for src\/calc\.js was not found: line 4 of the file has `b` where line 2 of your SEARCH has `c`; lines 3-5 of the file are now:\n```\nfunction add\(a, b\) \{\n {2}return a - b;\n\}\n```/);
    assert.strictEqual(first.matchedBy, undefined, 'nothing was applied');
    assert.match(h.prompt(1), /Hunk 1 \(`@@ -2,3 \+2,3 @@`\) of the diff for src\/calc\.js was not found/, 'the next prompt carries the note');
    assert.deepStrictEqual(second.matchedBy, { 'unified-diff': 1 });
    assert.deepStrictEqual(third.matchedBy, { 'fence-path+indentation': 1 });
    assert.match(h.read('src/calc.js'), /function add\(a, b\) \{\n {2}return a \+ b;\n\}\n\nfunction mul\(a, b\) \{\n {2}return a \* b;\n\}/);
  });
});
