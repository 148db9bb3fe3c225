// The diagnostic half of the witness cannot be gamed (issue 24), through the real CLI on git copies of a project and a
// scripted model: a suppression directive is refused like an edit to a test, code moved out of tsc's reach is
// missing rather than fixed, and a checker's configuration is protected. Each run then reaches the real fix.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { linkTypescript, runCli } from '../support/cli';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { answer, edit } from '../../support/calcAnswers';
import { needToolchain } from '../support/toolchains';

const TYPED_LINE = '  /** @type {number} */\n  const cents = n.toFixed(2);';
const REAL_FIX = edit('src/format.js', TYPED_LINE, '  /** @type {string} */\n  const cents = n.toFixed(2);', 'toFixed returns a string.');
const suppress = (directive: string) => edit('src/format.js', TYPED_LINE, `  /** @type {number} */\n  ${directive}\n  const cents = n.toFixed(2);`, 'Silence it.');
const NOCHECK = edit('src/format.js', "'use strict';\n\n/**", "// @ts-nocheck\n'use strict';\n\n/**", 'Skip checking this file.');

describe('greenloop fix: the checkers cannot be gamed (real CLI, scripted model)', function () {
  this.timeout(300_000);
  let h: FixHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('refuses @ts-ignore, @ts-expect-error and @ts-nocheck with --tsc on, says why in the next prompt, and reaches the real fix', async () => {
    h = await fixHarness('money');
    linkTypescript(h.project);
    const res = await h.fix(
      [answer(suppress('// @ts-ignore')), answer(suppress('// @ts-expect-error: toFixed')), answer(NOCHECK), answer(REAL_FIX)],
      ['--tsc', 'on', '--patience', '5', '--max-iterations', '6'],
    );
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(res.report.outcome, 'green');
    const verdicts = res.report.iterations.map((it: { verdict: string }) => it.verdict);
    assert.deepStrictEqual(verdicts, ['invalid-proposal', 'invalid-proposal', 'invalid-proposal', 'green']);
    for (const [i, directive] of [[0, '@ts-ignore'], [1, '@ts-expect-error'], [2, '@ts-nocheck']] as const) {
      assert.match(res.report.iterations[i].note, new RegExp(`suppression \`// ${directive}|suppression \`${directive}`));
      assert.match(res.report.iterations[i].note, /hide what TypeScript reports instead of fixing it/);
      assert.match(h.prompt(i + 1), new RegExp(directive), 'the next prompt names the refused directive');
    }
    assert.doesNotMatch(h.read('src/format.js'), /@ts-/);
    assert.match(h.read('src/format.js'), /@type \{string\}/);
  });

  it('--allow-suppressions lets a @ts-ignore through (the person chose it)', async () => {
    h = await fixHarness('money');
    linkTypescript(h.project);
    const res = await h.fix([answer(suppress('// @ts-ignore'))], ['--tsc', 'on', '--allow-suppressions', '--max-iterations', '1']);
    assert.strictEqual(res.report.outcome, 'green', res.stderr);
    assert.match(h.read('src/format.js'), /@ts-ignore/);
  });

  it('code moved to a file tsc does not check is missing, never green: rolled back, named in the next prompt, then the real fix @heavy', async () => {
    h = await fixHarness('money');
    linkTypescript(h.project);
    // An agent that first moves format.js out of tsconfig's "include" (its errors vanish with it), then fixes it.
    const agent = path.join(h.stateDir, 'agent.sh');
    const count = path.join(h.stateDir, 'attempts');
    fs.writeFileSync(agent, [
      '#!/bin/sh',
      `n=$(cat "${count}" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "${count}"`,
      'if [ "$n" = 1 ]; then',
      '  mkdir -p lib && mv src/format.js lib/format.js && sed -i "s#\'./format\'#\'../lib/format\'#" src/money.js',
      'else',
      '  sed -i "s#@type {number}#@type {string}#" src/format.js',
      'fi',
      `cat "$GREENLOOP_PROMPT_FILE" > "${h.stateDir}/seen-$n"`,
      '',
    ].join('\n'), { mode: 0o755 });
    const res = await runCli(['fix', '--cwd', h.project, '--actor', 'command', '--actor-cmd', agent, '--tsc', 'on', '--state-dir', h.stateDir, '--json', '--patience', '3']);
    const report = JSON.parse(res.stdout);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.deepStrictEqual(report.iterations.map((it: { verdict: string }) => it.verdict), ['regression', 'green']);
    assert.match(report.iterations[0].note, /tsc no longer checks src\/format\.js/);
    assert.ok(fs.existsSync(path.join(h.project, 'src', 'format.js')), 'the move was rolled back');
    assert.ok(!fs.existsSync(path.join(h.project, 'lib', 'format.js')), 'the moved copy is gone');
    assert.match(h.read('src/format.js'), /@type \{string\}/);
    assert.match(fs.readFileSync(path.join(h.stateDir, 'seen-2'), 'utf8'), /tsc no longer checks src\/format\.js/, 'the second prompt names the file');
  });

  it('refuses `# type: ignore` (and `# noqa`) with a --check mypy, and reaches the real fix', async function () {
    needToolchain('mypy');
    h = await fixHarness('pyprices');
    const ignore = edit('app/prices.py', '    return round(amount * 100)', '    return round(amount * 100)  # type: ignore', 'Silence mypy.');
    const noqa = edit('app/prices.py', '    return round(amount * 100)', '    return round(amount * 100)  # noqa', 'Silence it.');
    const fix = edit('app/prices.py', 'def cents(amount: float) -> str:', 'def cents(amount: float) -> int:', 'round() returns an int.');
    const res = await h.fix([answer(ignore), answer(noqa), answer(fix)], ['--test-cmd', 'python3 -m pytest -q tests', '--check', 'mypy app', '--patience', '4']);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.deepStrictEqual(res.report.iterations.map((it: { verdict: string }) => it.verdict), ['invalid-proposal', 'invalid-proposal', 'green']);
    assert.match(res.report.iterations[0].note, /`type: ignore`.*hide what mypy reports/);
    assert.match(res.report.iterations[1].note, /`noqa`/);
    assert.match(h.prompt(1), /type: ignore/);
    assert.match(h.read('app/prices.py'), /-> int:/);
  });

  it("refuses an edit to a checker's configuration (mypy.ini, [tool.mypy] of pyproject.toml) @heavy", async function () {
    needToolchain('mypy');
    h = await fixHarness('pyprices');
    h.write('pyproject.toml', '[project]\nname = "prices"\n');
    const loosen = edit('mypy.ini', 'strict = True', 'strict = True\nignore_errors = True', 'mypy is too strict.');
    const section = edit('pyproject.toml', 'name = "prices"', 'name = "prices"\n\n[tool.mypy]\nignore_errors = true', 'Configure mypy.');
    const fix = edit('app/prices.py', 'def cents(amount: float) -> str:', 'def cents(amount: float) -> int:', 'round() returns an int.');
    const res = await h.fix([answer(loosen), answer(section), answer(fix)], ['--test-cmd', 'python3 -m pytest -q tests', '--check', 'mypy app:mypy', '--patience', '4']);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.deepStrictEqual(res.report.iterations.map((it: { verdict: string }) => it.verdict), ['invalid-proposal', 'invalid-proposal', 'green']);
    // Refused as what it is: a checker's configuration, not a test file.
    assert.match(res.report.iterations[0].note, /mypy\.ini configures mypy, which decides what the checker reports; fix the code so mypy passes as configured instead\./);
    assert.doesNotMatch(res.report.iterations[0].note, /test file/);
    assert.match(res.report.iterations[1].note, /the checker sections of pyproject\.toml/);
    assert.doesNotMatch(h.read('mypy.ini'), /ignore_errors/);
    assert.doesNotMatch(h.read('pyproject.toml'), /tool\.mypy/);
  });

  it('an agent that adds `# type: ignore` has that file put back, with the reason in its next prompt @heavy', async function () {
    needToolchain('mypy');
    h = await fixHarness('pyprices');
    const agent = path.join(h.stateDir, 'agent.sh');
    const count = path.join(h.stateDir, 'attempts');
    fs.writeFileSync(agent, [
      '#!/bin/sh',
      `n=$(cat "${count}" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "${count}"`,
      `cat "$GREENLOOP_PROMPT_FILE" > "${h.stateDir}/seen-$n"`,
      'if [ "$n" = 1 ]; then sed -i "s/return round(amount \\* 100)$/return round(amount * 100)  # type: ignore/" app/prices.py',
      'else sed -i "s/def cents(amount: float) -> str:/def cents(amount: float) -> int:/" app/prices.py; fi',
      '',
    ].join('\n'), { mode: 0o755 });
    const res = await runCli(['fix', '--cwd', h.project, '--actor', 'command', '--actor-cmd', agent, '--test-cmd', 'python3 -m pytest -q -p no:cacheprovider tests', '--check', 'mypy app', '--tsc', 'off', '--state-dir', h.stateDir, '--json', '--patience', '3']);
    const report = JSON.parse(res.stdout);
    assert.strictEqual(res.code, 0, res.stderr);
    assert.strictEqual(report.outcome, 'green');
    assert.match(report.iterations[0].reverted[0].reason, /app\/prices\.py: the edit adds a suppression `type: ignore`/);
    assert.match(fs.readFileSync(path.join(h.stateDir, 'seen-2'), 'utf8'), /type: ignore/, 'the second prompt says why');
    assert.doesNotMatch(h.read('app/prices.py'), /type: ignore/);
    assert.match(h.read('app/prices.py'), /-> int:/);
  });
});
