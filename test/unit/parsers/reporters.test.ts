// One test has one ID whatever reporter runs it: each runner's other reporters, captured on the same suites as its
// default one, give the same failing IDs (the contract's exception: mocha's TAP/xunit/JSON join titles with spaces).
// Reporters that cannot be read are said to be unreadable, never taken for a suite that did not load.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { parseOutput } from '../../../src/runners/parseOutput';
import { parseJunitFiles } from '../../../src/runners/readers/junit';
import { CommandVerifier } from '../../../src/verify/commandVerifier';
import type { ParseResult } from '../../../src/runners/types';
import { readCaptureRaw } from './support';
import { tempDir } from '../support/cli';

const parse = (runner: string, name: string): ParseResult => {
  const text = readCaptureRaw(runner, name);
  return (name.endsWith('.xml') ? parseJunitFiles([text]) : parseOutput(text)) as ParseResult;
};
const failingIds = (r: ParseResult) => r.failing.map((f) => f.id).sort();
const statuses = (r: ParseResult) => (r.tests ?? []).map((t) => `${t.status} ${t.id}`).sort();

describe('the same suite through different reporters', () => {
  const pairs: Array<[string, string, string]> = [
    ['jest', 'default-mixed.txt', 'json-mixed.txt'],
    ['jest', 'default-mixed.txt', 'default-mixed-verbose.txt'],
    ['vitest', 'default-mixed.txt', 'json-mixed.txt'],
    ['go', 'v-mixed.txt', 'json-mixed.txt'],
    ['go', 'plain-mixed.txt', 'json-mixed.txt'],
    ['node', 'spec-mixed.txt', 'tap-mixed.txt'],
    ['mocha', 'tap-mixed.txt', 'json-mixed.txt'],
    ['mocha', 'tap-mixed.txt', 'xunit-mixed.xml'],
    ['vitest', 'default-mixed.txt', 'tap-mixed.txt'],
    ['vitest', 'default-mixed.txt', 'tap-flat-mixed.txt'],
    ['vitest', 'default-mixed.txt', 'junit-mixed.xml'],
    ['node', 'spec-mixed.txt', 'junit-mixed.xml'],
    ['node', 'spec-spaces.txt', 'tap-spaces.txt'],
    ['jest', 'default-mixed.txt', 'junit-separator-mixed.xml'],
  ];
  for (const [runner, a, b] of pairs) {
    it(`${runner}: ${a} and ${b} name the same failing tests`, () => {
      assert.deepEqual(failingIds(parse(runner, b)), failingIds(parse(runner, a)));
    });
  }

  it('vitest: TAP (nested under files, or flat) lists every test with the outcome the JSON report gives', () => {
    assert.deepEqual(statuses(parse('vitest', 'tap-mixed.txt')), statuses(parse('vitest', 'json-mixed.txt')));
    assert.deepEqual(statuses(parse('vitest', 'tap-flat-mixed.txt')), statuses(parse('vitest', 'json-mixed.txt')));
    assert.ok(!failingIds(parse('vitest', 'tap-flat-mixed.txt')).some((id) => /time=|\.test\.ts/.test(id)), 'no file prefix, no duration');
  });

  it('node: JUnit keeps the suite path, decodes the doubly escaped quotes, and tells apart same-named tests', () => {
    const junit = parse('node', 'junit-mixed.xml');
    assert.ok(failingIds(junit).includes('Calculator > format("x") (quoted) > keeps "double" and \'single\' quotes (and parens)'));
    assert.ok(failingIds(junit).includes('Calculator > add > handles negatives') && failingIds(junit).includes('Calculator > divide > handles negatives'));
    assert.ok((junit.tests ?? []).some((t) => t.id === 'top-level test without a suite' && t.status === 'passed'), 'a test outside any suite is read too');
  });

  it('a title with leading, trailing or doubled spaces gives the same ID in spec and TAP', () => {
    assert.deepEqual(failingIds(parse('node', 'spec-spaces.txt')), ['sub > padded title']);
  });

  it("jest-junit with an ancestor separator: the suite path is split; with jest-junit's default title template the last suite stays joined to the title", () => {
    const ambiguous = failingIds(parse('jest', 'junit-separator-default-mixed.xml'));
    assert.ok(ambiguous.includes('Parser > records parses a record into an object'), ambiguous.join('; '));
  });

  it('jest --json and --verbose list every test with the same outcome', () => {
    assert.deepEqual(statuses(parse('jest', 'json-mixed.txt')), statuses(parse('jest', 'default-mixed-verbose.txt')));
  });

  it('go -json is read as the -v text it carries: every test, the panic, the counts', () => {
    const json = parse('go', 'json-mixed.txt');
    const v = parse('go', 'v-mixed.txt');
    assert.deepEqual(statuses(json), statuses(v));
    assert.deepEqual([json.passedCount, json.failedCount, json.skippedCount], [v.passedCount, v.failedCount, v.skippedCount]);
    assert.ok(json.stoppedEarly);
    assert.equal(parse('go', 'json-loaderror.txt').loadError, true);
  });

  it('jest --json: a file that failed to load is a load error', () => {
    assert.equal(parse('jest', 'json-loaderror.txt').loadError, true);
    assert.equal(parse('jest', 'json-mixed.txt').loadError, false);
  });

  it('vitest --reporter=json: titles keep their suites, and messages are the assertion', () => {
    const r = parse('vitest', 'json-mixed.txt');
    assert.equal(r.runner, 'vitest');
    assert.match(r.failing.find((f) => f.id === 'Calculator > add > handles negatives')?.message ?? '', /expected -3 to be -4/);
  });

  it('mocha --reporter json: counts, skipped tests, and a load error read from the text mocha prints instead', () => {
    const r = parse('mocha', 'json-mixed.txt');
    assert.deepEqual([r.passedCount, r.failedCount, r.skippedCount], [4, 7, 2]);
    assert.equal(parse('mocha', 'json-loaderror.txt').loadError, true);
  });
});

describe('reporters that cannot be read are said to be, in one sentence', function () {
  this.timeout(60_000);
  const cwd = tempDir('reporters');
  after(() => fs.rmSync(cwd, { recursive: true, force: true }));
  const verify = (runner: string, name: string, exit = 1) => {
    const file = path.join(__dirname, '..', '..', 'fixtures', 'captured', runner, name);
    return new CommandVerifier({ cwd, testCommand: `cat "${file}"; exit ${exit}`, tsc: 'off', timeoutMs: 30_000 }).verify();
  };

  it("jest's summary reporter counts failures without naming them: unreadable, not a suite that did not load", async () => {
    const w = await verify('jest', 'summary-mixed.txt');
    assert.equal(w.loadError, false);
    assert.equal(w.unreadable, true);
    assert.equal(w.green, false);
    assert.match(w.warnings.join(' '), /counts 6 failing tests but names none \(jest's summary reporter\); run the tests with a reporter that names each test/);
  });

  it("jest's github-actions reporter on GitHub prints its failure blocks in groups: read like the default one", async () => {
    const w = await verify('jest', 'github-actions-mixed.txt');
    assert.equal(w.unreadable, false);
    assert.deepEqual(w.failing, failingIds(parse('jest', 'default-mixed.txt')));
  });

  it('GitHub Actions annotations alone (no failure blocks) are unreadable, and named as such', async () => {
    const annotations = "::error file=a.test.js,line=3,title=adds::expected 5%0Areceived -1\n::error file=a.test.js,line=9,title=muls::expected 6\n";
    const w = await new CommandVerifier({ cwd, testCommand: `printf '%s' '${annotations}'; exit 1`, tsc: 'off', timeoutMs: 30_000 }).verify();
    assert.equal(w.unreadable, true);
    assert.equal(w.loadError, false);
    assert.match(w.warnings.join(' '), /GitHub Actions annotations only \(exit code 1; a github-actions reporter\)/);
  });

  it("node's dot reporter names failures without their suites: unreadable, and the sentence says what to use", async () => {
    const w = await verify('node', 'dot-mixed.txt');
    assert.equal(w.unreadable, true);
    assert.deepEqual(w.failing, []);
    assert.match(w.warnings.join(' '), /node --test's dot reporter, which names failing tests without their suites .*use the default spec reporter or --test-reporter=tap/);
  });

  it('an empty output is unreadable whatever the exit code', async () => {
    const w = await new CommandVerifier({ cwd, testCommand: 'exit 1', tsc: 'off', timeoutMs: 30_000 }).verify();
    assert.equal(w.unreadable, true);
    assert.match(w.warnings.join(' '), /output is empty \(exit code 1\)/);
  });
});
