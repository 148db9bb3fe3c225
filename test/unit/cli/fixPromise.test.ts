// The loop's promise, tried as a demanding user would with a scripted model that behaves the way real models do
// under pressure: it cannot be gamed, it cannot overshoot a budget, and it never loses a person's edit.
// Each test is one way that promise broke before, run through the real CLI on a real git copy of a project.
import * as assert from 'assert';
import { execSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, runCli, treeBytes } from '../support/cli';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { alive } from '../support/processes';
import { answer, BREAK_NEG, COMMENT, edit, FIX_ADD, FIX_MUL, UNCOMMENT } from '../../support/calcAnswers';

const TEST_FILE = 'test/calc.test.js';

describe('greenloop fix keeps its promise (real CLI, scripted model server)', function () {
  this.timeout(120_000);
  let h: FixHarness;
  beforeEach(async () => {
    h = await fixHarness('calc');
  });
  afterEach(async () => {
    await h.close();
  });

  /** A counter outside the workspace that the test command bumps on every run: how often the tests really ran. */
  function countingTestCommand(extra = ''): { cmd: string; runs: () => number } {
    const counter = path.join(h.stateDir, 'runs.count');
    return {
      cmd: `echo run >> "${counter}"; node --test test/; s=$?; ${extra} exit $s`,
      runs: () => (fs.existsSync(counter) ? fs.readFileSync(counter, 'utf8').trim().split('\n').length : 0),
    };
  }

  /** Adds `calc > is flaky`, which fails on the runs where `passes` (over the run number n) is false. */
  function addFlakyTest(passes: string): void {
    const counter = JSON.stringify(path.join(h.stateDir, 'flaky.count'));
    const flakyTest = [
      `  it('is flaky', () => {`,
      `    const fs = require('node:fs');`,
      `    const n = (fs.existsSync(${counter}) ? Number(fs.readFileSync(${counter}, 'utf8')) : 0) + 1;`,
      `    fs.writeFileSync(${counter}, String(n));`,
      `    assert.ok(${passes}, 'flaked on run ' + n);`,
      '  });',
    ].join('\n');
    h.write(TEST_FILE, h.read(TEST_FILE).replace('});\n', `${flakyTest}\n});\n`));
  }

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

  describe('budgets are deadlines', () => {
    it('a prompt that cannot fit the token budget is not sent at all', async () => {
      const res = await h.fix([answer(FIX_ADD)], ['--max-tokens', '400']);
      assert.strictEqual(res.code, 1);
      assert.strictEqual(res.report.reason, 'budget-tokens');
      assert.match(res.report.reasonText, /the model was not asked/);
      assert.strictEqual(h.server.requests.length, 0);
      assert.strictEqual(res.report.requests, 0);
    });

    it('each call asks for no more completion tokens than the budget has left', async () => {
      const res = await h.fix([{ content: FIX_ADD, usage: { prompt_tokens: 900, completion_tokens: 200 } }, answer(FIX_MUL)], ['--max-tokens', '1400']);
      const sent = h.server.requests[0].body.max_tokens;
      assert.ok(Number.isInteger(sent) && sent > 0 && sent < 1400 - 256, `max_tokens ${sent}`);
      // After the first call 1,100 of 1,400 are used: the next prompt alone does not fit, so there is no second call.
      assert.strictEqual(res.report.reason, 'budget-tokens');
      assert.strictEqual(h.server.requests.length, 1);
    });

    // The clocks below only tell "stopped at the deadline" from "waited for what it was given": each slow thing
    // (an answer held 120 s, a stream of 120 s or more, a 300 s sleep) lasts far longer than the bound, and the bound
    // is many times the budget, so a busy machine never changes a verdict.
    it('a model server that never answers is stopped at the time budget, as budget-time', async () => {
      const started = Date.now();
      const res = await h.fix([{ delayMs: 120_000 }], ['--max-minutes', '0.05']);
      const took = Date.now() - started;
      assert.strictEqual(res.code, 1, res.stderr);
      assert.strictEqual(res.report.reason, 'budget-time');
      assert.ok(took < 60_000, `took ${took} ms against a 3 s budget: it waited for the answer held 120 s`);
    });

    it('a model that streams slowly is cut off at the time budget', async () => {
      const started = Date.now();
      // 40,000 one-character deltas at least 3 ms apart: two minutes or more if it were let run.
      const res = await h.fix([{ content: 'x'.repeat(40_000), chunkChars: 1, usage: { prompt_tokens: 10, completion_tokens: 10 } }], ['--max-minutes', '0.05'], { stream: true });
      assert.strictEqual(res.report.reason, 'budget-time', res.stderr);
      assert.ok(Date.now() - started < 60_000, `took ${Date.now() - started} ms: it read the whole stream`);
    });

    it('a test run still going at the deadline is killed, and the unverified edit undone', async () => {
      const pidFile = path.join(h.stateDir, 'pid');
      const cmd = `if grep -q "a + b;" src/calc.js; then echo $$ > "${pidFile}"; sleep 300; fi; node --test test/`;
      const before = treeBytes(h.project);
      const started = Date.now();
      // 24 s: room for the baseline run and the answer on a busy machine (9 s was too little with two CPU burners
      // beside a loaded 2-core machine) before the deadline finds the tests running.
      const res = await h.fix([answer(FIX_ADD)], ['--test-cmd', cmd, '--max-minutes', '0.4']);
      const took = Date.now() - started;
      assert.strictEqual(res.report.reason, 'budget-time', res.stderr);
      assert.ok(took < 90_000, `took ${took} ms against a 24 s budget: it waited for the tests' 300 s sleep`);
      assert.deepStrictEqual(treeBytes(h.project), before);
      assert.strictEqual(alive(Number(fs.readFileSync(pidFile, 'utf8'))), false, 'the test command outlived the budget');
    });

    it('a Retry-After longer than the time left ends the run at once instead of waiting', async () => {
      const started = Date.now();
      // 24 s: room for the baseline on a busy machine before the first request, and still less than the 30 s asked for.
      const res = await h.fix([{ status: 429, headers: { 'Retry-After': '30' } }, answer(FIX_ADD)], ['--max-minutes', '0.4']);
      assert.strictEqual(res.report.reason, 'budget-time', res.stderr);
      // Decided before any wait: the reason names the wait it refused, and no second request was made.
      assert.match(res.report.reasonText, /waiting 30 s to try again would outlast the time budget/);
      assert.strictEqual(h.server.requests.length, 1, 'no second request: it did not wait and try again');
      assert.ok(Date.now() - started < 60_000, 'it ended at once instead of waiting');
    });

    it('an agent command still working at the deadline is killed', async () => {
      const pidFile = path.join(h.stateDir, 'agent.pid');
      const script = path.join(h.stateDir, 'slow-agent.sh');
      fs.writeFileSync(script, `#!/bin/sh\necho $$ > "${pidFile}"\nsleep 300\n`, { mode: 0o755 });
      const started = Date.now();
      // 24 s: room for the baseline run on a busy machine before the deadline finds the agent working.
      const res = await runCli(['fix', '--cwd', h.project, '--actor', 'command', '--actor-cmd', script, '--tsc', 'off', '--state-dir', h.stateDir, '--json', '--max-minutes', '0.4']);
      const report = JSON.parse(res.stdout);
      assert.strictEqual(report.reason, 'budget-time', res.stderr);
      assert.ok(Date.now() - started < 90_000, "it waited for the agent's 300 s sleep");
      assert.strictEqual(alive(Number(fs.readFileSync(pidFile, 'utf8'))), false);
    });

    it('--extra-iterations, --extra-tokens grant that much more from where the run stopped', async () => {
      const first = await h.fix([answer(COMMENT('one')), answer(COMMENT('two'))], ['--max-tokens', '100000']);
      assert.strictEqual(first.report.reason, 'stagnation');
      const used = first.report.tokens.prompt + first.report.tokens.completion;
      await h.fix([answer(COMMENT('three')), answer(COMMENT('four'))], ['--resume', 'last', '--hint', 'look at add()', '--extra-iterations', '2', '--extra-tokens', '5000']);
      // 2 attempts used + 2 granted; tokens: what was used + 5,000 (not the 100,000 of the first limit).
      assert.match(h.prompt(2), /Attempt 3 of 4 \(budget left: 1 more attempt after this one, 5,000 tokens/);
      assert.ok(used > 0);
    });

    it('refuses to resume a run whose spent budget the grant does not extend, in one sentence', async () => {
      // Room for the first prompt (about 900 tokens with its code context) and an answer; the call then spends it all.
      const first = await h.fix([{ content: FIX_ADD, usage: { prompt_tokens: 1300, completion_tokens: 300 } }], ['--max-tokens', '1600']);
      assert.strictEqual(first.report.llmCalls, 1, first.stderr);
      assert.strictEqual(first.report.reason, 'budget-tokens');
      const res = await h.fix([answer(FIX_MUL)], ['--resume', 'last', '--hint', 'mul adds', '--extra-iterations', '2']);
      assert.strictEqual(res.code, 2, `${first.stderr}\n---\n${res.stderr}`);
      assert.match(res.stderr, /cannot go on: the 1,600-token budget is spent; grant more tokens \(--extra-tokens N\)/);
    });
  });

  describe('cycles, repeats and flaky tests', () => {
    it('calls a cycle before re-running the tests, even when the test command writes a report into the workspace', async () => {
      const t = countingTestCommand('date +%s%N > report.xml;');
      const res = await h.fix([answer(COMMENT('B')), answer(UNCOMMENT('B'))], ['--test-cmd', t.cmd, '--patience', '5']);
      assert.strictEqual(res.report.reason, 'cycle');
      assert.strictEqual(res.report.iterations.length, 2);
      assert.strictEqual(t.runs(), 2, 'baseline and attempt 1 ran the tests; attempt 2 returned to a known state');
      assert.match(res.report.reasonText, /returned the workspace to the state the run started from/);
    });

    it('a second edit that leads to a rolled-back state is a repeated proposal, not a cycle, and is not tested again', async () => {
      const t = countingTestCommand();
      const sameEffect = edit('src/calc.js', '  return -a;', '  return a;', 'Negation differently.');
      const res = await h.fix([answer(BREAK_NEG), answer(sameEffect)], ['--test-cmd', t.cmd, '--patience', '5']);
      assert.strictEqual(res.report.reason, 'repeated-proposal');
      assert.match(res.report.reasonText, /made the same change as attempt 1, which had broken tests/);
      assert.notStrictEqual(res.report.iterations[0].proposalHash, res.report.iterations[1].proposalHash);
      // baseline, attempt 1, and the two re-runs that ruled out a flaky `negates`; nothing for attempt 2.
      assert.strictEqual(t.runs(), 4);
      assert.match(h.read('src/calc.js'), /return -a;/);
    });

    it('a source file the tests rewrite stays part of the state: a real fix after it is tested, not called a cycle', async () => {
      const stamp = edit('src/calc.js', "'use strict';", [
        "'use strict';",
        '// stamp: 0',
        "require('fs').writeFileSync(__filename, require('fs').readFileSync(__filename, 'utf8').replace('// stamp: 0', '// stamp: 1'));",
      ].join('\n'), 'Mark the module.');
      const res = await h.fix([answer(stamp), answer(FIX_ADD), answer(FIX_MUL)], ['--patience', '3']);
      assert.deepStrictEqual(res.report.iterations.map((i: any) => i.verdict), ['no-progress', 'progress', 'green']);
      assert.strictEqual(res.code, 0, res.stderr);
    });

    it('an edit that changes nothing is sent back as such, not called a cycle: the fix that follows is green', async () => {
      const noOp = edit('src/calc.js', '  return a - b;', '  return a - b;', 'add() looks right; tidying it.');
      const res = await h.fix([answer(noOp), answer(`${FIX_ADD}\n${FIX_MUL}`)]);
      assert.strictEqual(res.code, 0, res.stderr);
      assert.deepStrictEqual(res.report.iterations.map((i: any) => i.verdict), ['invalid-proposal', 'green']);
      assert.match(res.report.iterations[0].note, /changes nothing/);
      assert.match(JSON.stringify(h.server.requests[1].body.messages), /changes nothing/, 'the model is told why');
    });

    it('the same unusable answer twice stops the run as a repeated proposal', async () => {
      const garbage = 'I think the bug is somewhere in calc.js. Please check.';
      const res = await h.fix([answer(garbage), answer(`  ${garbage}\n`), answer(FIX_ADD)], ['--patience', '5']);
      assert.strictEqual(res.report.reason, 'repeated-proposal');
      assert.strictEqual(h.server.requests.length, 2);
    });

    it('a test that fails one run in two does not veto a correct fix: it is re-run and named flaky', async () => {
      addFlakyTest('n !== 2');
      const res = await h.fix([answer(FIX_ADD), answer(FIX_MUL)]);
      assert.strictEqual(res.code, 0, res.stderr);
      assert.deepStrictEqual(res.report.iterations.map((i: any) => i.verdict), ['progress', 'green']);
      assert.deepStrictEqual(res.report.iterations[0].flaky, ['calc > is flaky']);
      assert.deepStrictEqual(res.report.flaky, ['calc > is flaky']);
      assert.match(res.report.warnings.join(' '), /Flaky test found in attempt 1: calc > is flaky/);
    });

    it('a fix that leaves only a flaky test failing is green at once, even when the flaky test fails the confirming run', async () => {
      // Fails one run in three (runs 2, 5, 8 …): the run after the fix and the run that confirms green.
      addFlakyTest('n % 3 !== 2');
      const res = await h.fix([answer(`${FIX_ADD}\n${FIX_MUL}`), answer(`${FIX_ADD}\n${FIX_MUL}`)]);
      assert.strictEqual(res.code, 0, res.stderr);
      assert.strictEqual(h.server.requests.length, 1, 'no second model call for a state whose only failure is flaky');
      assert.deepStrictEqual(res.report.iterations.map((i: any) => i.verdict), ['green']);
      assert.deepStrictEqual(res.report.flaky, ['calc > is flaky']);
    });

    it('a test title with a temp path, a pid and a duration is the same test on every run', async () => {
      // Fails until mul() is fixed (attempt 2): after attempt 1 it still fails, under a title that changed.
      const volatile = "  it(`reads ${require('node:os').tmpdir()}/vol-${Math.random().toString(36).slice(2)} as pid ${process.pid} in ${Date.now() % 1000}ms`, () => assert.equal(mul(3, 3), 9));";
      h.write(TEST_FILE, h.read(TEST_FILE).replace("  it('negates'", `${volatile}\n  it('negates'`));
      const res = await h.fix([answer(FIX_ADD), answer(FIX_MUL)]);
      assert.strictEqual(res.code, 0, res.stderr);
      assert.deepStrictEqual(res.report.iterations.map((i: any) => i.verdict), ['progress', 'green']);
      assert.ok(res.report.baseline.failing.some((id: string) => /^calc > reads <tmp> as pid <pid> in <dur>$/.test(id)), res.report.baseline.failing.join('; '));
    });
  });

  describe('the same failure, run after run', () => {
    it('after 3 escalations in a row a 4th run stops before asking the model, unless --ignore-history', async () => {
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

  describe('odd workspaces and servers', () => {
    it('an edit through a linked folder lands on the link target, which snapshots record (no crash)', async () => {
      h.write('lib/util.js', 'module.exports = 1;\n');
      fs.symlinkSync('../lib', path.join(h.project, 'src', 'lib'));
      const res = await h.fix([answer(edit('src/lib/util.js', 'module.exports = 1;', 'module.exports = 2;')), answer(FIX_ADD), answer(FIX_MUL)], ['--patience', '3']);
      assert.strictEqual(res.code, 0, res.stderr);
      assert.strictEqual(res.report.iterations[0].verdict, 'no-progress');
      assert.strictEqual(h.read('lib/util.js'), 'module.exports = 2;\n');
    });

    it('says so when the model server ignores max_tokens', async () => {
      const res = await h.fix([{ content: FIX_ADD, usage: { prompt_tokens: 900, completion_tokens: 50_000 } }], ['--max-tokens', '3000']);
      assert.strictEqual(res.report.reason, 'budget-tokens');
      assert.match(res.report.warnings.join(' '), /reported 50,000 completion tokens for an answer limited to [\d,]+ \(max_tokens\): it does not honour the limit/);
    });

    it('every subcommand explains itself with --help (exit 0)', async () => {
      for (const sub of ['fix', 'verify', 'parse']) {
        const res = await runCli([sub, '--help']);
        assert.strictEqual(res.code, 0, `${sub}: ${res.stderr}`);
        assert.match(res.stdout, new RegExp(`^Usage:\\n  greenloop ${sub} `));
      }
    });
  });

  describe('errors', () => {
    it('a test command that hangs at baseline still prints a JSON report (escalated, verify-error, exit 1)', async () => {
      const res = await h.fix([answer(FIX_ADD)], ['--test-cmd', 'sleep 30', '--verify-timeout-s', '1']);
      assert.strictEqual(res.code, 1, res.stderr);
      assert.strictEqual(res.report.outcome, 'escalated');
      assert.strictEqual(res.report.reason, 'verify-error');
      assert.match(res.report.reasonText, /did not finish within 1 s on the unchanged workspace/);
      assert.match(res.stderr, /stopped \(verify-error\): The test command did not finish/);
      assert.match(res.stderr, /the first test run could not be used/);
      assert.doesNotMatch(res.stderr, /baseline — 0 failing/);
      assert.strictEqual(h.server.requests.length, 0);
    });

    it('stops at once on 400 (deterministic), and after 2 retries on 5xx', async () => {
      const bad = await h.fix([{ status: 400, body: { error: { message: 'messages: field required' } } }]);
      assert.strictEqual(bad.report.reason, 'actor-error');
      assert.match(bad.report.reasonText, /messages: field required/);
      assert.strictEqual(h.server.requests.length, 1);
      assert.strictEqual(bad.report.requests, 1);
      h.server.requests.length = 0;
      const flaky = await h.fix([{ status: 500 }, { status: 502 }, { status: 503 }, answer(FIX_ADD)]);
      assert.strictEqual(flaky.report.reason, 'actor-error');
      assert.match(flaky.report.reasonText, /after 2 retries/);
      assert.strictEqual(flaky.report.requests, 3);
      assert.strictEqual(flaky.report.llmCalls, 0);
    });

    it('an agent CLI that fails the same way twice stops the run', async () => {
      const script = path.join(h.stateDir, 'broken-agent.sh');
      fs.writeFileSync(script, '#!/bin/sh\necho "error: no API key configured" >&2\nexit 1\n', { mode: 0o755 });
      const res = await runCli(['fix', '--cwd', h.project, '--actor', 'command', '--actor-cmd', script, '--tsc', 'off', '--state-dir', h.stateDir, '--json']);
      const report = JSON.parse(res.stdout);
      assert.strictEqual(report.reason, 'actor-error');
      assert.strictEqual(report.iterations.length, 2);
      assert.match(report.reasonText, /failed the same way twice: The agent command exited with code 1; its last output:\nerror: no API key configured/);
    });
  });
});
