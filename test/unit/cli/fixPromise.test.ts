// The loop's promise, tried as a demanding user would with a scripted model that behaves the way real models do
// under pressure: it cannot be gamed, it cannot overshoot a budget, and it never loses a person's edit.
// Each test is one way that promise broke before, run through the real CLI on a real git copy of a project.
// (Split in three files so that parallel workers share it: budgets and errors in fixPromiseBudgets, cycles in fixPromiseCycles.)
import * as assert from 'assert';
import { execSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, runCli } from '../support/cli';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { answer, COMMENT, edit, FIX_ADD, FIX_MUL } from '../../support/calcAnswers';
import { TEST_FILE } from '../support/promiseHelpers';

describe('greenloop fix keeps its promise (real CLI, scripted model server)', function () {
  this.timeout(120_000);
  let h: FixHarness;
  beforeEach(async () => {
    h = await fixHarness('calc');
  });
  afterEach(async () => {
    await h.close();
  });

  describe('green and progress cannot be gamed', () => {
    it('a model that adds process.exit(0) to the module under test is not green: the tests went missing and the edit is rolled back', async () => {
      const exitEarly = edit('src/calc.js', "'use strict';", "'use strict';\nprocess.exit(0);", 'Stop the failing checks early.');
      const res = await h.fix([answer(exitEarly), answer(FIX_ADD), answer(FIX_MUL)], ['--patience', '3']);
      assert.strictEqual(res.code, 0, res.stderr);
      const first = res.report.iterations[0];
      assert.strictEqual(first.verdict, 'regression');
      assert.strictEqual(first.rolledBack, true);
      assert.deepStrictEqual(first.missing, ['calc > adds', 'calc > multiplies', 'calc > negates']);
      assert.match(h.prompt(1), /3 tests that ran before did not run at all \(`calc > adds`, `calc > multiplies`, `calc > negates`\)/);
      assert.doesNotMatch(h.read('src/calc.js'), /process\.exit/);
      assert.deepStrictEqual(res.report.iterations.map((i: any) => i.verdict), ['regression', 'progress', 'green']);
    });

    it('a test deleted with --allow-test-edits is missing, never fixed', async () => {
      const multiplies = "  it('multiplies', () => assert.equal(mul(2, 3), 6));";
      const deleteTest = edit(TEST_FILE, `  it('adds', () => assert.equal(add(2, 3), 5));\n${multiplies}`, multiplies, 'This test looks obsolete.');
      const res = await h.fix([answer(deleteTest)], ['--allow-test-edits', '--max-iterations', '1']);
      const first = res.report.iterations[0];
      assert.strictEqual(first.verdict, 'regression');
      assert.deepStrictEqual(first.missing, ['calc > adds']);
      assert.match(h.read(TEST_FILE), /it\('adds'/, 'the deleted test is back');
    });

    it('a mocha config that deselects the failing tests is refused as protected, and with --allow-test-edits rolled back as missing', async () => {
      fs.rmSync(path.join(h.project, 'test', 'calc.test.js'));
      h.write('test/calc.test.js', [
        "'use strict';",
        "const assert = require('node:assert/strict');",
        "const { add, mul, neg } = require('../src/calc');",
        "describe('calc', () => {",
        "  it('adds', () => assert.equal(add(2, 3), 5));",
        "  it('multiplies', () => assert.equal(mul(2, 3), 6));",
        "  it('negates', () => assert.equal(neg(4), -4));",
        '});',
        '',
      ].join('\n'));
      h.write('.mocharc.json', '{\n  "spec": "test/*.test.js"\n}\n');
      const mocha = path.join(ROOT, 'node_modules', '.bin', 'mocha');
      const deselect = edit('.mocharc.json', '  "spec": "test/*.test.js"', '  "spec": "test/*.test.js",\n  "grep": "negates"', 'Focus on what passes.');
      const refused = await h.fix([answer(deselect)], ['--test-cmd', mocha, '--max-iterations', '1']);
      assert.strictEqual(refused.report.iterations[0].verdict, 'invalid-proposal');
      assert.match(refused.report.iterations[0].note, /\.mocharc\.json is a protected test file/);

      const allowed = await h.fix([answer(deselect)], ['--test-cmd', mocha, '--max-iterations', '1', '--allow-test-edits']);
      const it0 = allowed.report.iterations[0];
      assert.strictEqual(it0.verdict, 'regression', JSON.stringify(it0));
      assert.deepStrictEqual(it0.missing, ['calc > adds', 'calc > multiplies']);
      assert.doesNotMatch(h.read('.mocharc.json'), /grep/);
    });

    it('an edit to the test script in package.json is refused; other package.json edits are not', async () => {
      const narrow = edit('package.json', '  "scripts": { "test": "node --test test/" }', '  "scripts": { "test": "node --test --test-name-pattern=negates test/" }', 'Run only the relevant test.');
      const rename = edit('package.json', '  "name": "calc-fixture",', '  "name": "calc-fixed",', 'Rename.');
      // npm reads the script this edit narrows: the run goes through `npm test`, as detected, not the harness's shortcut.
      const res = await h.fix([answer(narrow), answer(rename), answer(FIX_ADD), answer(FIX_MUL)], ['--patience', '4', '--test-cmd', 'npm test']);
      assert.strictEqual(res.code, 0, res.stderr);
      assert.strictEqual(res.report.iterations[0].verdict, 'invalid-proposal');
      assert.match(res.report.iterations[0].note, /changes the test scripts and test-runner settings of package\.json/);
      assert.strictEqual(res.report.iterations[1].verdict, 'no-progress');
      assert.match(h.read('package.json'), /"test": "node --test test\/"/);
    });

    it('an .npmrc that swaps the shell npm runs scripts with is refused; with --allow-test-edits the silent run is every test missing', async () => {
      const swapShell = edit('.npmrc', '', 'script-shell=/bin/true', 'Use a faster shell.');
      const refused = await h.fix([answer(swapShell)], ['--max-iterations', '1', '--test-cmd', 'npm test']);
      assert.match(refused.report.iterations[0].note, /\.npmrc is a protected test file/);
      const allowed = await h.fix([answer(swapShell)], ['--max-iterations', '1', '--allow-test-edits', '--test-cmd', 'npm test']);
      assert.strictEqual(allowed.report.iterations[0].verdict, 'regression');
      assert.deepStrictEqual(allowed.report.iterations[0].missing, ['calc > adds', 'calc > multiplies', 'calc > negates']);
      assert.strictEqual(fs.existsSync(path.join(h.project, '.npmrc')), false);
    });

    it('an edit that replaces an assertion from the code under test is refused', async () => {
      const patchAssert = edit('src/calc.js', 'module.exports = { add, mul, neg };', "module.exports = { add, mul, neg };\nconst A = require('node:assert/strict');\nA.equal = () => {};", 'Relax the checks.');
      const patchHook = edit('src/hook.js', '', "require('assert').strict.equal = function () {};", 'A helper.');
      const res = await h.fix([answer(patchAssert), answer(patchHook), answer(FIX_ADD), answer(FIX_MUL)], ['--patience', '4']);
      assert.strictEqual(res.code, 0, res.stderr);
      assert.match(res.report.iterations[0].note, /src\/calc\.js: the edit replaces part of an assertion library \(`A\.equal =`\)/);
      assert.match(res.report.iterations[1].note, /src\/hook\.js: the edit replaces part of an assertion library/);
      assert.doesNotMatch(h.read('src/calc.js'), /A\.equal/);
    });

    it('code that rewrites a protected test file while the tests run is rolled back, and the test file restored', async () => {
      const rewriteTests = edit('src/calc.js', 'module.exports = { add, mul, neg };', [
        'module.exports = { add, mul, neg };',
        "const fs = require('fs'); const p = require('path').join(__dirname, '..', 'test', 'calc.test.js');",
        "fs.writeFileSync(p, fs.readFileSync(p, 'utf8').replace(/assert\\.equal\\(/g, 'assert.ok(true || '));",
      ].join('\n'), 'Housekeeping.');
      const before = h.read(TEST_FILE);
      const res = await h.fix([answer(rewriteTests), answer(COMMENT('harmless'))], ['--patience', '2']);
      const first = res.report.iterations[0];
      assert.strictEqual(first.verdict, 'regression');
      assert.match(first.note, /rewrote protected test files \(`test\/calc\.test\.js`\)/);
      assert.strictEqual(h.read(TEST_FILE), before);
      assert.notStrictEqual(res.report.outcome, 'green');
      // Nothing tells the code under test from a person saving the file meanwhile: what was written is kept, and the
      // note says how to read it back.
      assert.deepStrictEqual(first.testsWrote?.paths, [TEST_FILE]);
      const show = /What was written is kept[^:]*: (git .*)$/.exec(first.note)?.[1];
      assert.ok(show, first.note);
      const kept = execSync(show, { encoding: 'utf8' });
      assert.match(kept, /assert\.ok\(true \|\| /);
      assert.notStrictEqual(kept, before);
    });

    it('a fix that passes only every other run is not green', async () => {
      const toggle = path.join(h.stateDir, 'toggle');
      const unreliable = edit('src/calc.js', 'module.exports = { add, mul, neg };', [
        `const fs = require('fs'); const on = !fs.existsSync(${JSON.stringify(toggle)});`,
        `if (on) fs.writeFileSync(${JSON.stringify(toggle)}, '1'); else fs.rmSync(${JSON.stringify(toggle)});`,
        'module.exports = on ? { add: (a, b) => a + b, mul: (a, b) => a * b, neg } : { add, mul, neg };',
      ].join('\n'), 'Sometimes right.');
      const res = await h.fix([answer(unreliable)], ['--max-iterations', '1', '--verify-scope', 'full']);
      assert.notStrictEqual(res.report.outcome, 'green', res.stderr);
      assert.notStrictEqual(res.report.iterations[0].verdict, 'green');
      assert.match(res.report.warnings.join(' '), /green once, but not when run again on the same files/);
      // Failing tests first: the fix passes in the targeted run and fails in the whole suite (or the other way round).
      fs.rmSync(toggle, { force: true });
      const first = await h.fix([answer(unreliable)], ['--max-iterations', '1']);
      assert.notStrictEqual(first.report.outcome, 'green', first.stderr);
      assert.notStrictEqual(first.report.iterations[0].verdict, 'green');
      assert.match(first.report.warnings.join(' '), /passed when run alone but failed in the whole suite|green once, but not when run again/);
    });

    it('a test command that runs no test is never green: the baseline escalates as verify-error before any model call', async () => {
      const res = await h.fix([answer(FIX_ADD)], ['--test-cmd', 'node --test --test-name-pattern=nomatch test/']);
      assert.strictEqual(res.code, 1, res.stderr);
      assert.strictEqual(res.report.outcome, 'escalated');
      assert.strictEqual(res.report.reason, 'verify-error');
      assert.match(res.report.reasonText, /ran no tests \(3 skipped\)/);
      assert.strictEqual(h.server.requests.length, 0);
    });
  });

  describe('the same failure, run after run', () => {
    it('after 3 escalations in a row a 4th run stops before asking the model, unless --ignore-history @heavy', async () => {
      for (let i = 0; i < 3; i++) {
        const res = await h.fix([answer(COMMENT(`a${i}`)), answer(COMMENT(`b${i}`))]);
        assert.strictEqual(res.report.reason, 'stagnation');
        if (i === 2) assert.match(res.report.warnings.join(' '), /One more such escalation/);
      }
      const asked = h.server.requests.length;
      const blocked = await h.fix([answer(COMMENT('c'))]);
      assert.strictEqual(blocked.code, 1);
      assert.strictEqual(blocked.report.reason, 'stagnation');
      assert.strictEqual(blocked.report.iterations.length, 0);
      assert.strictEqual(h.server.requests.length, asked, 'no model call');
      assert.match(blocked.report.reasonText, /The last 3 runs .* stopped before asking the model/);
      assert.match(blocked.stderr, /pass --ignore-history to run anyway/);
      // Same model, same budgets (another budget would be another configuration, and not blocked at all).
      const anyway = await h.fix([answer(COMMENT('d'))], ['--ignore-history']);
      assert.strictEqual(h.server.requests.length, asked + 2);
      assert.match(anyway.report.warnings.join(' '), /You chose to run anyway/);
    });
  });

  describe('nothing of the person is lost', () => {
    it('a resumed run starts from the workspace as the person left it and never removes their edits', async () => {
      const first = await h.fix([answer(COMMENT('one')), answer(COMMENT('two'))]);
      assert.strictEqual(first.report.reason, 'stagnation');
      h.write('NOTES.md', 'what I found\n');
      h.write('src/calc.js', `${h.read('src/calc.js')}// the person's own note\n`);
      const res = await h.fix([answer(COMMENT('three')), answer(COMMENT('four'))], ['--resume', 'last', '--hint', 'add subtracts', '--extra-iterations', '2', '--on-give-up', 'restore-baseline']);
      assert.strictEqual(res.report.reason, 'stagnation');
      assert.strictEqual(h.read('NOTES.md'), 'what I found\n');
      assert.match(h.read('src/calc.js'), /the person's own note/);
      assert.doesNotMatch(h.read('src/calc.js'), /\/\/ (three|four)/);
      assert.match(res.report.warnings.join(' '), /Resumed from the workspace as you left it \(NOTES\.md, src\/calc\.js\)/);
    });

    it('refuses a model edit to a git-ignored file, which no snapshot could roll back', async () => {
      h.write('.gitignore', 'settings.local.js\n');
      h.write('settings.local.js', 'module.exports = { strict: true };\n');
      const res = await h.fix([answer(edit('settings.local.js', 'strict: true', 'strict: false')), answer(FIX_ADD), answer(FIX_MUL)]);
      assert.strictEqual(res.code, 0, res.stderr);
      assert.strictEqual(res.report.iterations[0].verdict, 'invalid-proposal');
      assert.match(res.report.iterations[0].note, /settings\.local\.js is ignored by git/);
      assert.strictEqual(h.read('settings.local.js'), 'module.exports = { strict: true };\n');
    });

    it("names an agent's edit to a git-ignored dependency as a warning, leaves it as it is, and tests the final state again", async () => {
      h.write('.gitignore', 'node_modules/\n');
      h.write('node_modules/helper/index.js', 'module.exports = 1;\n');
      const script = path.join(h.stateDir, 'agent.sh');
      fs.writeFileSync(script, "#!/bin/sh\necho 'module.exports = 2;' > node_modules/helper/index.js\n", { mode: 0o755 });
      const res = await runCli(['fix', '--cwd', h.project, '--actor', 'command', '--actor-cmd', script, '--tsc', 'off', '--state-dir', h.stateDir, '--json', '--max-iterations', '1']);
      const report = JSON.parse(res.stdout);
      assert.strictEqual(report.reason, 'budget-iterations', report.reasonText);
      assert.deepStrictEqual(report.iterations[0].outsideWarnings, [{ where: 'node_modules/helper/index.js', what: 'changed', why: 'dependencies are not saved' }]);
      assert.match(report.warnings.join(' '), /node_modules\/helper\/index\.js changed \(dependencies are not saved\)\. Greenloop can neither undo it/);
      assert.strictEqual(h.read('node_modules/helper/index.js'), 'module.exports = 2;\n', 'left as the report says');
      assert.match(report.warnings.join(' '), /Git-ignored files changed during the run, so the final state was tested again: 2 failing/);
    });
  });
});
