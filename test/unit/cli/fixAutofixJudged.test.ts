// How the project's own fixers' change is judged (issue 33), with real ESLint: a fix that breaks a test is rolled back
// and the model reads the original errors, without the fixers using an attempt of the budget; a fixer that adds a
// suppression is refused like any edit; `--autofix off` and a fixer that is not installed leave the errors to the
// model. Part of every `npm test` (about 20 s of CPU): these are issue 33's own promises.
import * as assert from 'assert';
import type { FixHarness } from '../support/fixHarness';
import { answer, edit } from '../../support/calcAnswers';
import { ESLINT_CHECK, ensureInstalled, project, type Iteration } from '../support/autofixProjects';

describe('greenloop fix: how the project\'s own fixers\' change is judged (real ESLint, scripted model)', function () {
  this.timeout(240_000);
  let h: FixHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a real fixer whose change breaks a test is rolled back, and the model reads the original errors (not counted as an attempt)', async function () {
    ensureInstalled({ npm: 'eslint' });
    // object-shorthand turns `Point: function` into a method, which is no constructor: ESLint's fix breaks the test.
    const source = "'use strict';\nmodule.exports = {\n  Point: function (x, y) {\n    this.x = x;\n    this.y = y;\n  },\n};\n";
    h = await project({
      needs: { npm: 'eslint' },
      files: {
        'eslint.config.mjs': "export default [{ files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' }, rules: { 'object-shorthand': 'error' } }];\n",
        'src/shapes.js': source,
        'test/shapes.test.js': "'use strict';\nconst { test } = require('node:test');\nconst assert = require('node:assert');\nconst shapes = require('../src/shapes');\n\ntest('a Point is made with new', () => assert.strictEqual(new shapes.Point(1, 2).x, 1));\n",
      },
    });
    // The model's SEARCH is the original text: it only lands if the fixer's change was undone first.
    const fix = edit('src/shapes.js', '  Point: function (x, y) {\n    this.x = x;\n    this.y = y;\n  },', '  Point: class {\n    constructor(x, y) {\n      this.x = x;\n      this.y = y;\n    }\n  },');
    const res = await h.fix([answer(fix)], ['--check', ESLINT_CHECK, '--max-iterations', '1']);
    assert.strictEqual(res.code, 0, `${res.stderr}\n${JSON.stringify(res.report?.iterations ?? res.stdout)}`);
    const [zero, one] = res.report.iterations as Iteration[];
    assert.strictEqual(zero.actor, 'autofix');
    assert.strictEqual(zero.verdict, 'regression');
    assert.strictEqual(zero.rolledBack, true);
    assert.match(zero.note, /a Point is made with new/);
    assert.strictEqual(one.n, 1);
    assert.strictEqual(one.verdict, 'green');
    assert.strictEqual(res.report.llmCalls, 1);
    const prompt = h.prompt(0);
    assert.match(prompt, /Attempt 1 of 1/, 'the fixers did not use the one attempt of the budget');
    assert.match(prompt, /Expected method shorthand/, 'the model reads the original error');
    assert.match(prompt, /project's own fixers ran first[\s\S]*undone/);
    assert.match(prompt, /Point: function \(x, y\)/, 'the model reads the file as it was before the fixer');
  });

  it('a fixer that adds a suppression is refused like any edit: the file is put back and the model gets the error', async function () {
    ensureInstalled({ npm: 'eslint' });
    const source = "'use strict';\nlet one = 1;\nmodule.exports = { one };\n";
    h = await project({
      needs: { npm: 'eslint' },
      files: { 'eslint.config.mjs': "export default [{ files: ['**/*.js'], rules: { 'prefer-const': 'error' } }];\n", 'src/a.js': source },
    });
    // A check that names its own fixer: this one silences ESLint instead of fixing the code.
    const check = `${ESLINT_CHECK}:eslint:fix=sed -i '1i /* eslint-disable */' src/a.js`;
    const res = await h.fix([answer(edit('src/a.js', 'let one = 1;', 'const one = 1;'))], ['--check', check]);
    assert.strictEqual(res.code, 0, `${res.stderr}\n${JSON.stringify(res.report?.iterations ?? res.stdout)}`);
    const [zero, one] = res.report.iterations as Iteration[];
    assert.strictEqual(zero.actor, 'autofix');
    assert.strictEqual(zero.verdict, 'invalid-proposal');
    assert.match(zero.note, /eslint-disable/);
    assert.match(zero.commands![0].command, /^sed -i/);
    assert.strictEqual(one.verdict, 'green');
    assert.strictEqual(res.report.llmCalls, 1);
    assert.match(h.prompt(0), /change was refused/);
    assert.doesNotMatch(h.read('src/a.js'), /eslint-disable/);
  });

  it('--autofix off, and a fixer that is not installed: the model gets the errors, the missing fixer is one sentence', async function () {
    ensureInstalled({ npm: 'eslint' });
    const files = { 'eslint.config.mjs': "export default [{ files: ['**/*.js'], rules: { 'prefer-const': 'error' } }];\n", 'src/a.js': "'use strict';\nlet one = 1;\nmodule.exports = { one };\n" };
    const fix = edit('src/a.js', 'let one = 1;', 'const one = 1;');
    h = await project({ needs: { npm: 'eslint' }, files });
    const off = await h.fix([answer(fix)], ['--check', ESLINT_CHECK, '--autofix', 'off']);
    assert.strictEqual(off.code, 0, off.stderr);
    assert.deepStrictEqual((off.report.iterations as Iteration[]).map((it) => [it.n, it.actor ?? 'model']), [[1, 'model']]);
    assert.strictEqual(off.report.llmCalls, 1);
    await h.close();

    h = await project({ needs: { npm: 'eslint' }, files });
    const missing = await h.fix([answer(fix)], ['--check', `${ESLINT_CHECK}:eslint:fix=no-such-fixer-xyz --fix src`]);
    assert.strictEqual(missing.code, 0, missing.stderr);
    assert.deepStrictEqual((missing.report.iterations as Iteration[]).map((it) => [it.n, it.actor ?? 'model']), [[1, 'model']], 'a fixer that changed nothing is no attempt');
    assert.ok(missing.report.warnings.some((w: string) => /^no-such-fixer-xyz's fixer `no-such-fixer-xyz --fix src` cannot run: .*not installed/.test(w)), JSON.stringify(missing.report.warnings));
  });
});
