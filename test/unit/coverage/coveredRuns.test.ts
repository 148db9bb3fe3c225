// Coverage of the failing tests on real runners: a bug no stack frame names (a wrong constant a test asserts, nothing
// thrown from the buggy file) is found by the lines the failing tests executed — V8 for node --test and mocha, go's
// -coverprofile, coverage.py for pytest — and what cannot measure says why in one sentence.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CommandVerifier } from '../../../src/verify/commandVerifier';
import type { CoverageCollected, TargetedRun } from '../../../src/ports/verifier';

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
    const { coverage } = await coveredRun(dir, 'npx mocha --reporter dot test/');
    assertRanked(coverage, dir, 'lib/tax.js', 'const rate = 0.25', "return 'never called'");
  });
});
