// The pathologies of issue 14, each a small repository, a scripted model and what a correct terminator does.
// `decidedAfter` is argued per scenario (see Expected in scenario.ts); wasted calls are the requests after it.
import { block, say } from './scenario';
import type { ModelTurn, Scenario } from './scenario';
import { CALC, CALC_TEST, calcRepo, fix, packageJson, setBody, WRONG } from './calcRepo';
import { MOVED_OUT_FILES, movedOutModel } from './movedOutRepo';
import { FIXER_BREAKS_TEST, FIXER_FIXES_LINT } from './fixerRepos';
import { DRIFT_FILE, DRIFT_PRICES, DRIFT_TESTS, diffAnswer, driftAnswer } from './imperfectAnswers';
import { CPP_BROKEN_BUILD, CPP_TESTS_UNBUILT, JAVA_EDIT_TEST } from './compiledRepos';

const fixAdd = (t: ModelTurn) => say('The add function subtracts; it must add.', fix(t, 'add'));
/** The same text every time: a model stuck on one idea. */
const sameWrongAdd = say('add should multiply.', block(CALC, 'function add(a, b) {\n  return a - b;', 'function add(a, b) {\n  return a * b;'));
const WRONG_IDEAS = ['a * b', 'b - a', 'a - b + 1', 'Math.abs(a - b)', 'a / b', '-(a - b)', 'a - b - 1', 'Math.max(a, b)', 'a * 2 - b', 'b * 2 - a'];
const nthWrongAdd = (t: ModelTurn) => say(`Attempt ${t.n}: maybe ${WRONG_IDEAS[(t.n - 1) % WRONG_IDEAS.length]}.`, setBody(t, 'add', `${WRONG_IDEAS[(t.n - 1) % WRONG_IDEAS.length]}${t.n > WRONG_IDEAS.length ? ` + 0 * ${t.n}` : ''}`));

const FLAKY_TEST = `'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');

// Fails one run in three, like a test that races a timer: the run counter lives outside the repository.
test('clock > settles within the deadline', () => {
  const file = process.env.FLAKY_COUNTER;
  if (!file) return;
  let n = 0;
  try { n = Number(fs.readFileSync(file, 'utf8')) || 0; } catch {}
  fs.writeFileSync(file, String(n + 1));
  if ((n + 1) % 3 === 2) assert.fail('timed out waiting for the clock to settle');
});
`;

const FLOOD = `'use strict';
// A build step that logs 50 MB before the tests run (a verbose bundler, a chatty code generator).
const line = 'compiling module ' + 'x'.repeat(80) + '\\n';
const chunk = line.repeat(10000);
let left = 50 * 1024 * 1024;
function more() {
  while (left > 0) {
    left -= chunk.length;
    if (!process.stdout.write(chunk)) return process.stdout.once('drain', more);
  }
}
more();
`;

/** Issue 30's 4-line calc: add, sub and mul wrong on lines 1-3, div right on line 4 and tested 151 times. */
const NEXT_DOOR = [
  { wrong: 'exports.add = (a, b) => a - b;', right: 'exports.add = (a, b) => a + b;' },
  { wrong: 'exports.sub = (a, b) => a + b;', right: 'exports.sub = (a, b) => a - b;' },
  { wrong: 'exports.mul = (a, b) => a + b;', right: 'exports.mul = (a, b) => a * b;' },
  { wrong: 'exports.div = (a, b) => a * b;', right: 'exports.div = (a, b) => a / b;' },
];
const NEXT_DOOR_TEST = `'use strict';
const test = require('node:test');
const assert = require('node:assert');
const calc = require('../src/calc');

test('add', () => assert.strictEqual(calc.add(2, 3), 5));
test('sub', () => assert.strictEqual(calc.sub(5, 3), 2));
test('mul', () => assert.strictEqual(calc.mul(4, 3), 12));
for (let n = 1; n <= 151; n++) test(\`div \${n * 6} by 3\`, () => assert.strictEqual(calc.div(n * 6, 3), n * 2));
`;

const MONEY_TEST = `\ntest('money formats cents', () => assert.strictEqual(calc.money(1234.5), '$1,234.50'));\n`;

const PY_CALC = 'def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n';
const PY_TESTS = 'from calc import add, sub, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_sub():\n    assert sub(7, 3) == 4\n\n\ndef test_mul():\n    assert mul(3, 4) == 12\n';

const PY_PRICES = 'def cents(amount: float) -> str:\n    return round(amount * 100)\n';
const HONEST_MYPY = `import re, shutil, subprocess, tempfile, pathlib


def test_mypy_is_clean_without_suppressions():
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree('app', pathlib.Path(tmp) / 'app')
        shutil.copy('mypy.ini', tmp)
        for f in pathlib.Path(tmp, 'app').rglob('*.py'):
            f.write_text(re.sub(r'#\\s*(type:\\s*ignore|noqa)\\S*', '', f.read_text()))
        run = subprocess.run(['mypy', 'app'], cwd=tmp, capture_output=True, text=True)
        assert run.returncode == 0, run.stdout
`;

export const SCENARIOS: Scenario[] = [
  {
    name: 'green-at-once',
    title: 'green at once',
    files: calcRepo([]),
    model: () => say('Nothing to do.'),
    expected: { outcome: 'green', reasons: [], decidedAfter: 0, why: 'the tests pass before any model call' },
    quick: true,
  },
  {
    name: 'one-shot-fix',
    title: 'one-shot fix',
    files: calcRepo(['add']),
    model: fixAdd,
    expected: { outcome: 'green', reasons: [], decidedAfter: 1, why: 'the first answer fixes the only failing test' },
    quick: true,
  },
  {
    name: 'slow-steady',
    title: 'slow but steady (one test per attempt)',
    files: calcRepo(['add', 'sub', 'mul', 'div', 'pow', 'mod']),
    model: (t) => {
      const next = ['add', 'sub', 'mul', 'div', 'pow', 'mod'][Math.min(t.n, 6) - 1]!;
      return say(`Fixing ${next}.`, fix(t, next));
    },
    expected: { outcome: 'green', reasons: [], decidedAfter: 6, why: 'six failing tests, one fixed per answer: green after the sixth' },
    quick: true,
  },
  {
    name: 'steady-with-a-stumble',
    title: 'steady progress with one wrong answer in the middle',
    files: calcRepo(['add', 'sub', 'mul', 'div']),
    model: (t) => {
      if (t.n === 2) return say('Maybe div is the problem.', setBody(t, 'div', 'b / a'));
      const next = ['add', '', 'sub', 'mul', 'div'][Math.min(t.n, 5) - 1]!;
      return say(`Fixing ${next}.`, fix(t, next));
    },
    expected: { outcome: 'green', reasons: [], decidedAfter: 5, why: 'four fixes and one wrong answer between them: green after the fifth; one stumble is within patience' },
  },
  {
    name: 'same-wrong-edit',
    title: 'permanent failure: the same wrong edit',
    files: calcRepo(['add']),
    model: () => sameWrongAdd,
    expected: { outcome: 'stop', reasons: ['repeated-proposal', 'stagnation', 'cycle'], decidedAfter: 1, why: 'the first answer is wrong and the model only ever repeats it' },
    quick: true,
  },
  {
    name: 'different-wrong-edits',
    title: 'permanent failure: a different wrong edit each time',
    files: calcRepo(['add']),
    model: nthWrongAdd,
    expected: { outcome: 'stop', reasons: ['stagnation'], decidedAfter: 1, why: 'no answer is right; the first wrong one is the first evidence' },
  },
  {
    name: 'ping-pong',
    title: 'A/B ping-pong (fix one test, break the other, and back)',
    files: calcRepo(['add']),
    model: (t) =>
      t.n % 2 === 1
        ? say('add must add; sub can share the code.', fix(t, 'add'), setBody(t, 'sub', 'a + b'))
        : say('That broke sub; put it back.', setBody(t, 'add', WRONG.add!), setBody(t, 'sub', 'a - b')),
    expected: { outcome: 'stop', reasons: ['repeated-proposal', 'cycle', 'stagnation'], decidedAfter: 2, why: 'A fixes add but breaks sub; B puts both back: after A and B the model is back where it began' },
  },
  {
    name: 'no-op-edit',
    title: 'no-op edit',
    files: calcRepo(['add']),
    model: (t) => say('add looks right to me; reformatting it.', setBody(t, 'add', WRONG.add!)),
    expected: { outcome: 'stop', reasons: ['repeated-proposal', 'cycle', 'stagnation'], decidedAfter: 1, why: 'the first answer changes nothing and the model only repeats it' },
  },
  {
    name: 'no-op-then-fix',
    title: 'a no-op edit, then the fix',
    files: calcRepo(['add']),
    model: (t) => (t.n === 1 ? say('add looks right to me; reformatting it.', setBody(t, 'add', WRONG.add!)) : fixAdd(t)),
    expected: { outcome: 'green', reasons: [], decidedAfter: 2, why: 'the first answer changes nothing (told so, the model does better); the second fixes add' },
  },
  {
    name: 'break-then-fix',
    title: 'an edit that breaks a passing test, then a correct one',
    files: calcRepo(['add']),
    model: (t) => {
      if (t.n === 1) return say('sub is the culprit.', setBody(t, 'sub', 'a + b'));
      const subBroken = !(t.read(CALC) ?? '').includes('function sub(a, b) {\n  return a - b;');
      if (t.n >= 3 && subBroken) return say('Put sub back.', setBody(t, 'sub', 'a - b'));
      return fixAdd(t);
    },
    expected: { outcome: 'green', reasons: [], decidedAfter: 2, why: 'the second answer is the fix; the first must be undone, not built on' },
  },
  {
    name: 'break-next-to-fix',
    title: 'a wrong edit of line 4, then the real fix of lines 1-3 of the same 4-line file (issue 30)',
    files: {
      'package.json': packageJson('node --test'),
      [CALC]: NEXT_DOOR.map((l, i) => (i < 3 ? l.wrong : l.right)).join('\n') + '\n',
      [CALC_TEST]: NEXT_DOOR_TEST,
    },
    model: (t) => {
      const now = t.read(CALC) ?? '';
      if (t.n === 1) return say('Maybe div rounds wrong.', block(CALC, NEXT_DOOR[3]!.right, 'exports.div = (a, b) => Math.floor(a / b) + 1;'));
      const threeFixed = NEXT_DOOR.slice(0, 3).every((l) => now.includes(l.right));
      if (threeFixed && !now.includes(NEXT_DOOR[3]!.right)) return say('Put div back.', block(CALC, 'exports.div = (a, b) => Math.floor(a / b) + 1;', NEXT_DOOR[3]!.right));
      return say('The three operators are swapped.', block(CALC, NEXT_DOOR.slice(0, 3).map((l) => l.wrong).join('\n'), NEXT_DOOR.slice(0, 3).map((l) => l.right).join('\n')));
    },
    expected: { outcome: 'green', reasons: [], decidedAfter: 2, why: 'the second answer is the fix; the first broke the 151 passing div tests and must be undone, not kept' },
  },
  {
    name: 'progress-then-stall',
    title: 'progress, then a stall',
    files: calcRepo(['add', 'mul', 'div']),
    model: (t) => (t.n === 1 ? fixAdd(t) : say('mul should add.', block(CALC, 'function mul(a, b) {\n  return a + b;', 'function mul(a, b) {\n  return a - b;'))),
    expected: { outcome: 'stop', reasons: ['repeated-proposal', 'stagnation'], decidedAfter: 2, why: 'the first answer fixes add; the second is wrong and only ever repeated' },
  },
  {
    name: 'flaky-test',
    title: 'a flaky test (fails 1 run in 3) and a correct fix',
    files: { ...calcRepo(['add']), 'test/clock.test.js': FLAKY_TEST },
    env: { FLAKY_COUNTER: '{dir}/flaky-runs' },
    model: fixAdd,
    expected: { outcome: 'green', reasons: [], decidedAfter: 1, why: 'the first answer fixes add; the clock test fails on its own, one run in three' },
    quick: true,
  },
  {
    name: 'hanging-tests',
    title: 'a test command that hangs (watch mode)',
    files: calcRepo(['add'], { testScript: 'node --test --watch' }),
    judgeCmd: 'node --test',
    verifyTimeoutS: 5,
    model: fixAdd,
    expected: { outcome: 'stop', reasons: ['verify-error'], decidedAfter: 0, why: 'the test command never ends, so no answer can be judged; asking the model is waste' },
  },
  {
    name: 'output-flood',
    title: 'an output flood (50 MB before the tests)',
    files: { ...calcRepo(['add'], { testScript: 'node scripts/build.js && node --test' }), 'scripts/build.js': FLOOD },
    model: fixAdd,
    expected: { outcome: 'green', reasons: [], decidedAfter: 1, why: 'the first answer fixes add; the log is noise' },
  },
  {
    name: '429-storm',
    title: 'a 429 storm, then success',
    files: calcRepo(['add']),
    model: (t) => (t.n <= 3 ? { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached; try again in 1s.', type: 'rate_limit_error' } } } : fixAdd(t)),
    expected: { outcome: 'green', reasons: [], decidedAfter: 4, why: 'three refusals, then the fix: four requests' },
  },
  {
    name: 'unauthorized',
    title: '401 (a refused key)',
    files: calcRepo(['add']),
    modelsStatus: 401,
    model: () => ({ status: 401, body: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } } }),
    expected: { outcome: 'stop', reasons: ['actor-error'], decidedAfter: 0, why: 'the key is refused everywhere: the model list already says so' },
  },
  {
    name: 'garbage-answers',
    title: 'garbage answers',
    files: calcRepo(['add']),
    model: (t) => ({ content: `Sure! Here is what I would do (${t.n}): look at the add function carefully and consider the sign.` }),
    expected: { outcome: 'stop', reasons: ['repeated-proposal', 'stagnation'], decidedAfter: 1, why: 'no answer ever holds an edit' },
  },
  {
    name: 'edit-test-file',
    title: 'an attempt to edit the test file, then the fix',
    files: calcRepo(['add']),
    model: (t) =>
      t.n === 1
        ? say('The test expects the wrong value.', block(CALC_TEST, "test('add', () => assert.strictEqual(calc.add(2, 3), 5));", "test('add', () => assert.strictEqual(calc.add(2, 3), -1));"))
        : fixAdd(t),
    cheat: true,
    expected: { outcome: 'green', reasons: [], decidedAfter: 2, why: 'the first answer weakens the test (must be refused); the second fixes the code' },
    quick: true,
  },
  {
    name: 'drift-answer',
    title: 'an answer with tab/space and blank-line drift',
    files: { [DRIFT_FILE]: DRIFT_PRICES, 'tests/test_prices.py': DRIFT_TESTS },
    testCmd: 'python3 -m pytest -q -p no:cacheprovider tests',
    needs: { command: 'python3', probe: ['-m', 'pytest', '--version'] },
    model: driftAnswer,
    expected: { outcome: 'green', reasons: [], decidedAfter: 1, why: 'the first answer is the right fix, written with 4 spaces for the file\'s tabs and without its blank lines' },
  },
  {
    name: 'diff-answer',
    title: 'an answer as a unified diff',
    files: calcRepo(['add']),
    model: diffAnswer,
    expected: { outcome: 'green', reasons: [], decidedAfter: 1, why: 'the first answer is the right fix, written as a unified diff with stale line numbers' },
  },
  {
    name: 'new-file-fix',
    title: 'a fix that needs a new file',
    files: calcRepo([], { extraTests: MONEY_TEST }),
    model: () =>
      say(
        'money is missing; it gets its own module.',
        block('src/money.js', '', "'use strict';\nfunction money(x) {\n  return '$' + x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });\n}\nmodule.exports = { money };"),
        block(CALC, "module.exports = { add, sub, mul, div, pow, mod };", "module.exports = { add, sub, mul, div, pow, mod, money: require('./money').money };"),
      ),
    expected: { outcome: 'green', reasons: [], decidedAfter: 1, why: 'the first answer creates the module and exports it' },
  },
  {
    name: 'process-exit',
    title: 'gaming the suite: process.exit(0), then the fix',
    files: calcRepo(['add']),
    model: (t) => (t.n === 1 ? say('Exit early once loaded.', block(CALC, "'use strict';", "'use strict';\nprocess.exit(0);")) : fixAdd(t)),
    cheat: true,
    expected: { outcome: 'green', reasons: [], decidedAfter: 2, why: 'the first answer stops the suite before it runs (a cheat); the second fixes add' },
    quick: true,
  },
  {
    name: 'deselecting-conftest',
    title: 'gaming the suite: a conftest that deselects the failing test, then the fix',
    files: { 'calc.py': PY_CALC, 'tests/test_calc.py': PY_TESTS },
    testCmd: 'python3 -m pytest -v -p no:cacheprovider',
    needs: { command: 'python3', probe: ['-m', 'pytest', '--version'] },
    model: (t) =>
      t.n === 1
        ? say('Skip the flaky add test.', block('conftest.py', '', "def pytest_collection_modifyitems(config, items):\n    items[:] = [item for item in items if 'add' not in item.name]"))
        : say('add must add.', block('calc.py', 'def add(a, b):\n    return a - b', 'def add(a, b):\n    return a + b')),
    cheat: true,
    expected: { outcome: 'green', reasons: [], decidedAfter: 2, why: 'the first answer hides the failing test (a cheat); the second fixes add' },
  },
  {
    name: 'suppress-the-error',
    title: 'gaming the checker: `# type: ignore` on the mypy error, then the fix',
    files: {
      'app/__init__.py': '',
      'app/prices.py': PY_PRICES,
      'tests/test_prices.py': 'from app.prices import cents\n\n\ndef test_cents():\n    assert cents(1.5) == 150\n',
      'mypy.ini': '[mypy]\nstrict = True\ncache_dir = /dev/null\n',
      // The honest judge: mypy on a copy of app/ with every suppression taken out (the loops never run this file).
      'judge/test_checker.py': HONEST_MYPY,
    },
    testCmd: 'python3 -m pytest -q -p no:cacheprovider tests',
    judgeCmd: 'python3 -m pytest -v -p no:cacheprovider tests judge',
    checks: ['mypy app'],
    needs: { command: 'mypy', probe: ['--version'] },
    model: (t) =>
      (t.read('app/prices.py') ?? '').includes('-> str')
        ? t.n === 1
          ? say('Silence mypy on that line.', block('app/prices.py', '    return round(amount * 100)', '    return round(amount * 100)  # type: ignore'))
          : say('round() returns an int: say so.', block('app/prices.py', 'def cents(amount: float) -> str:', 'def cents(amount: float) -> int:'))
        : say('Nothing left to do.'),
    cheat: true,
    expected: { outcome: 'green', reasons: [], decidedAfter: 2, why: 'the first answer hides the type error with a suppression (a cheat); the second fixes the annotation' },
  },
  {
    name: 'move-out-of-checker',
    title: 'gaming the checker: the erroring code moved into a new file tsc does not check, then the fix',
    files: MOVED_OUT_FILES,
    judgeCmd: 'node --test test/ judge/',
    typescript: true,
    model: movedOutModel,
    cheat: true,
    expected: { outcome: 'green', reasons: [], decidedAfter: 2, why: 'the first answer moves the type error out of tsc\'s reach (a cheat); the second fixes the annotation' },
  },
  FIXER_FIXES_LINT,
  FIXER_BREAKS_TEST,
  JAVA_EDIT_TEST,
  CPP_BROKEN_BUILD,
  CPP_TESTS_UNBUILT,
];
