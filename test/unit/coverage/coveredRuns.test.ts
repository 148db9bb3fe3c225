// Coverage of the failing tests on real runners: a bug no stack frame names (a wrong constant a test asserts, nothing
// thrown from the buggy file) is found by the lines the failing tests executed — V8 for node --test and mocha, go's
// -coverprofile, coverage.py for pytest and unittest — and what cannot measure says why in one sentence.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CommandVerifier } from '../../../src/verify/commandVerifier';
import type { CoverageCollected, TargetedRun } from '../../../src/ports/verifier';
import { needToolchain } from '../support/toolchains';

const ROOT = path.join(__dirname, '..', '..', '..');
const made: string[] = [];

function workspace(files: Record<string, string>, nodeModules = false): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-coverage-'));
  made.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  if (nodeModules) fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

/** The whole suite first (it tells the verifier the runner), then the failing tests alone with coverage. */
async function coveredRun(dir: string, testCommand: string, env: NodeJS.ProcessEnv = process.env): Promise<{ run: Extract<TargetedRun, { ok: true }>; coverage: CoverageCollected }> {
  const verifier = new CommandVerifier({ cwd: dir, testCommand, tsc: 'off', timeoutMs: 300_000, env: { ...env, NO_COLOR: '1' } });
  const full = await verifier.verify();
  assert.ok(full.failing.length > 0, 'the whole suite has a failing test');
  const run = await verifier.verifyTargeted(full.failures, undefined, { coverage: true });
  assert.ok(run.ok, run.ok ? '' : run.why);
  assert.ok(run.coverage, 'a covered run says what it measured');
  return { run, coverage: run.coverage };
}

function lineOf(dir: string, rel: string, text: string): number {
  const lines = fs.readFileSync(path.join(dir, rel), 'utf8').split('\n');
  const i = lines.findIndex((l) => l.includes(text));
  assert.ok(i >= 0, `${rel} has "${text}"`);
  return i + 1;
}

function assertRanked(coverage: CoverageCollected, dir: string, rel: string, buggy: string, notRun: string): void {
  assert.ok(coverage.ok, coverage.ok ? '' : coverage.why);
  const hints = coverage.hints;
  const bug = lineOf(dir, rel, buggy);
  const hit = hints.find((h) => h.path === rel && h.line === bug);
  assert.ok(hit, `the buggy line ${rel}:${bug} is a hint (got ${hints.map((h) => `${h.path}:${h.line}`).join(', ')})`);
  assert.strictEqual(hit.source, 'coverage');
  assert.ok(hit.score > 0);
  assert.ok(!hints.some((h) => h.path === rel && h.line === lineOf(dir, rel, notRun)), 'a line no failing test ran is no hint');
  assert.ok(!hints.some((h) => h.path.includes('node_modules') || path.isAbsolute(h.path)), 'only the workspace\'s own files');
}

const JS_LIB = {
  'lib/price.js': "const tax = require('./tax');\nfunction total(net) {\n  return net + tax.of(net);\n}\nmodule.exports = { total };\n",
  // The bug: 0.25 where the tests expect 0.2. Nothing here throws: the assertion fails in the test file.
  'lib/tax.js': "function of(net) {\n  const rate = 0.25;\n  return net * rate;\n}\nfunction unused() {\n  return 'never called';\n}\nmodule.exports = { of, unused };\n",
  'lib/names.js': "exports.greet = (n) => `hello ${n}`;\n",
};

describe('coverage of the failing tests on real runners', function () {
  this.timeout(300_000);
  after(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('node --test: V8 finds the wrong constant in a file no stack frame names', async () => {
    const dir = workspace({
      ...JS_LIB,
      'test/price.test.js': "const test = require('node:test');\nconst assert = require('assert');\nconst { total } = require('../lib/price');\ntest('total adds the tax', () => { assert.strictEqual(total(100), 120); });\n",
      'test/names.test.js': "const test = require('node:test');\nconst assert = require('assert');\nconst { greet } = require('../lib/names');\ntest('greets', () => { assert.strictEqual(greet('a'), 'hello a'); });\n",
    });
    const { run, coverage } = await coveredRun(dir, 'node --test test/');
    assert.match(run.command, /--test-name-pattern/);
    assert.ok(!run.witness.failures[0].message.includes('lib/tax.js'), 'no stack frame names lib/tax.js');
    assertRanked(coverage, dir, 'lib/tax.js', 'const rate = 0.25', "return 'never called'");
    assert.strictEqual(coverage.ok && coverage.tool, 'V8');
    assert.ok(coverage.ok && !coverage.hints.some((h) => h.path === 'lib/names.js'), 'a file only a passing test loads is no hint');
  });

  it('mocha: V8 finds it too, all tests in one process', async () => {
    const dir = workspace({
      ...JS_LIB,
      'test/price.test.js': "const assert = require('assert');\nconst { total } = require('../lib/price');\ndescribe('price', () => { it('adds the tax', () => { assert.strictEqual(total(100), 120); }); });\n",
      'test/names.test.js': "const assert = require('assert');\nconst { greet } = require('../lib/names');\ndescribe('names', () => { it('greets', () => { assert.strictEqual(greet('a'), 'hello a'); }); });\n",
    }, true);
    const { run, coverage } = await coveredRun(dir, 'npx mocha --reporter dot test/');
    // The workspace's own mocha, called directly: npx's process (all of npm) is not measured with the tests.
    assert.match(run.command, /^node_modules\/\.bin\/mocha --reporter spec --grep /);
    assertRanked(coverage, dir, 'lib/tax.js', 'const rate = 0.25', "return 'never called'");
  });
});

describe('coverage of TypeScript run through a loader', function () {
  this.timeout(300_000);
  it('mocha with tsx: V8 offsets mapped through the source map Node keeps to the lines of the .ts file', async () => {
    const dir = workspace({
      'lib/price.ts': "import { of } from './tax';\n\nexport function total(net: number): number {\n  return net + of(net);\n}\n",
      // Types and a comment before the bug: the compiled code's lines are not the file's.
      'lib/tax.ts': "export interface Rate {\n  value: number;\n}\n\n/** The rate. */\nexport function of(net: number): number {\n  const rate: Rate = { value: 0.25 };\n  return net * rate.value;\n}\n\nexport function unused(): string {\n  return 'never called';\n}\n",
      'test/price.test.ts': "import * as assert from 'assert';\nimport { total } from '../lib/price';\n\ndescribe('price', () => {\n  it('adds the tax', () => {\n    assert.strictEqual(total(100), 120);\n  });\n});\n",
    }, true);
    const { coverage } = await coveredRun(dir, 'npx mocha -r tsx/cjs --extension ts test/');
    assertRanked(coverage, dir, 'lib/tax.ts', 'const rate: Rate', "return 'never called'");
    // (Line 1 may be a hint: the compiler maps its module preamble there.)
    const hints = coverage.ok ? coverage.hints : [];
    assert.ok(!hints.some((h) => h.path === 'lib/tax.ts' && (h.line === 2 || h.line === 11)), `an interface's body and an uncalled function's head ran nothing: ${JSON.stringify(hints)}`);
  });
});

describe('a file a loader rewrote', function () {
  this.timeout(300_000);
  it('is left out, never mapped onto the wrong lines', async () => {
    const dir = workspace({
      ...JS_LIB,
      // What babel's register hook does to every file: V8 runs code the file on disk does not hold, and no source map says where.
      'rewrite.js': "const fs = require('fs');\nrequire.extensions['.js'] = (module, file) => module._compile(file.includes('/lib/') ? '// rewritten\\n' + fs.readFileSync(file, 'utf8') : fs.readFileSync(file, 'utf8'), file);\n",
      'test/price.test.js': "const assert = require('assert');\nconst { total } = require('../lib/price');\ndescribe('price', () => { it('adds the tax', () => { assert.strictEqual(total(100), 120); }); });\n",
    }, true);
    const { coverage } = await coveredRun(dir, 'npx mocha -r ./rewrite.js test/');
    const hints = coverage.ok ? coverage.hints : [];
    assert.ok(hints.some((h) => h.path === 'test/price.test.js'), 'the files run as they are on disk still count');
    assert.ok(!hints.some((h) => h.path.startsWith('lib/')), `no line of a rewritten file: ${JSON.stringify(hints)}`);
  });
});

describe('coverage of the failing tests on real runners: go, pytest and unittest', function () {
  this.timeout(300_000);
  after(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('go test -coverprofile: the wrong constant in another package of the module', async () => {
    const dir = workspace({
      'go.mod': 'module example.com/shop\n\ngo 1.19\n',
      'tax/tax.go': 'package tax\n\n// Of is the tax on net.\nfunc Of(net float64) float64 {\n\trate := 0.25\n\treturn net * rate\n}\n\n// Unused is never called.\nfunc Unused() string {\n\treturn "never called"\n}\n',
      'price/price.go': 'package price\n\nimport "example.com/shop/tax"\n\n// Total adds the tax.\nfunc Total(net float64) float64 {\n\treturn net + tax.Of(net)\n}\n',
      'price/price_test.go': 'package price\n\nimport "testing"\n\nfunc TestTotal(t *testing.T) {\n\tif got := Total(100); got != 120 {\n\t\tt.Fatalf("Total(100) = %v, want 120", got)\n\t}\n}\n\nfunc TestZero(t *testing.T) {\n\tif Total(0) != 0 {\n\t\tt.Fatal("zero")\n\t}\n}\n',
    });
    const { run, coverage } = await coveredRun(dir, 'go test ./...', { ...process.env, GOFLAGS: '-count=1' });
    assert.match(run.command, /^go test -coverprofile=\S+ -coverpkg=\.\/\.\.\. -v -run '\^\(\?:TestTotal\)\$' \.\/price$/);
    assert.deepStrictEqual(run.witness.failing, ['TestTotal'], 'the covered run still reads as go output');
    assertRanked(coverage, dir, 'tax/tax.go', 'rate := 0.25', 'return "never called"');
    assert.strictEqual(coverage.ok && coverage.tool, 'go -coverprofile');
  });

  const PY = {
    'shop/__init__.py': '',
    'shop/tax.py': 'def of(net):\n    rate = 0.25\n    return net * rate\n\n\ndef unused():\n    return "never called"\n',
    'shop/price.py': 'from shop import tax\n\n\ndef total(net):\n    return net + tax.of(net)\n',
    'shop/names.py': 'def greet(n):\n    return "hello " + n\n',
    'tests/test_price.py': 'from shop.price import total\n\n\ndef test_total():\n    assert total(100) == 120\n',
    'tests/test_names.py': 'from shop.names import greet\n\n\ndef test_greet():\n    assert greet("a") == "hello a"\n',
  };
  const imports = (python: string, module: string, env?: NodeJS.ProcessEnv): boolean => {
    try {
      execFileSync(python, ['-c', `import ${module}`], { stdio: 'ignore', env });
      return true;
    } catch {
      return false;
    }
  };

  it('pytest with a python that cannot import coverage.py: the run goes on, and says why it measured nothing', async function () {
    assert.ok(imports('python3', 'pytest'), 'this test needs a python3 on PATH that imports pytest');
    assert.ok(!imports('python3', 'coverage'), 'this test needs a python3 without coverage.py');
    const dir = workspace(PY);
    const { run, coverage } = await coveredRun(dir, 'python3 -m pytest');
    // The tests ran all the same, by the same python: the witness is the plain run's.
    assert.match(run.command, /^python3 -c '.*' -rA tests\/test_price\.py::test_total$/s);
    assert.deepStrictEqual(run.witness.failing, ['tests/test_price.py > test_total']);
    assert.deepStrictEqual(run.witness.ran, ['tests/test_price.py > test_total']);
    assert.ok(!coverage.ok);
    assert.strictEqual(coverage.why, 'coverage.py is not importable by python3 (pip install coverage)');
  });

  it('pytest under coverage.py: the wrong constant in a module no traceback names', async function () {
    // Debian's python3 with Debian's pytest and coverage.py (scripts/toolchains.sh installs them where missing).
    needToolchain('python3-pytest', 'python3-coverage');
    const python = '/usr/bin/python3';
    const env: NodeJS.ProcessEnv = process.env;
    assert.ok(imports(python, 'coverage', env) && imports(python, 'pytest', env));
    const dir = workspace(PY);
    const { run, coverage } = await coveredRun(dir, `${python} -m pytest`, env);
    assert.ok(run.command.startsWith(`${python} -c `) && run.command.endsWith(' -rA tests/test_price.py::test_total'), run.command);
    assert.deepStrictEqual(run.witness.failing, ['tests/test_price.py > test_total'], 'the covered run still reads as pytest output');
    assertRanked(coverage, dir, 'shop/tax.py', 'rate = 0.25', 'return "never called"');
    assert.strictEqual(coverage.ok && coverage.tool, 'coverage.py');
    assert.ok(coverage.ok && !coverage.hints.some((h) => h.path === 'shop/names.py'));
  });

  it('python -m unittest under coverage.py: the same bug, the failing test run by its dotted name', async () => {
    // unittest is the standard library's: Debian's python3 with Debian's coverage.py (scripts/toolchains.sh installs it).
    needToolchain('python3-coverage');
    const python = '/usr/bin/python3';
    assert.ok(imports(python, 'coverage'));
    const dir = workspace({
      ...Object.fromEntries(Object.entries(PY).filter(([rel]) => rel.startsWith('shop/'))),
      'tests/__init__.py': '',
      'tests/test_price.py': 'import unittest\n\nfrom shop.price import total\n\n\nclass TestPrice(unittest.TestCase):\n    def test_total(self):\n        self.assertEqual(total(100), 120)\n',
      'tests/test_names.py': 'import unittest\n\nfrom shop.names import greet\n\n\nclass TestNames(unittest.TestCase):\n    def test_greet(self):\n        self.assertEqual(greet("a"), "hello a")\n',
    });
    const { run, coverage } = await coveredRun(dir, `${python} -m unittest`);
    assert.ok(run.command.startsWith(`${python} -c `) && run.command.endsWith(' -v tests.test_price.TestPrice.test_total'), run.command);
    assert.deepStrictEqual(run.witness.failing, ['tests/test_price.py > TestPrice > test_total'], 'the covered run still reads as unittest output');
    assertRanked(coverage, dir, 'shop/tax.py', 'rate = 0.25', 'return "never called"');
    assert.strictEqual(coverage.ok && coverage.tool, 'coverage.py');
  });
});
