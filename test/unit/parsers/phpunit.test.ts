// Expected values come from the suites in test/fixtures/runners/phpunit and test/fixtures/projects/php-* (which tests
// fail is decided there), read back from real PHPUnit 9.6 output captured by test/fixtures/regenerate/phpunit.sh.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { phpunitParser } from '../../../src/runners/phpunit/parser';
import { detectFormat, parseReports, tidyResult } from '../../../src/runners/parseOutput';
import type { ParseResult } from '../../../src/runners/types';
import { failureOf, ids, messageOf, otherParsers, readCapture, readCaptureRaw } from './support';

const read = (name: string): string => readCapture('phpunit', name);
const parse = (name: string, cwd?: string): ParseResult => tidyResult(phpunitParser.parse(read(name), cwd ? { cwd, command: 'phpunit' } : {}));
const junit = (name: string): ParseResult => tidyResult(parseReports('junit', [readCaptureRaw('phpunit', name)]));

const D = 'Mixed\\Tests\\DataSetsTest';
const O = 'Mixed\\Tests\\OutcomesTest';
const MIXED_FAILING = [
  `${D} > testNamed > data set "with "quotes" inside"`,
  `${D} > testNamed > data set "parens (1, 2) and a: colon"`,
  `${D} > testNamed > data set "nested with data set #9"`,
  `${D} > testNamed > data set "#7"`,
  `${D} > testNumbered > data set #1`,
  `${D} > testNumbered > data set #2`,
  `${D} > testWith > data set #1`,
  // PHPUnit's stand-in ("1) Error") for a data provider that returned no array: the method it provides for.
  `${D} > testInvalidProvider`,
  'Mixed\\Tests\\Deep\\NestedTest > testDeepFails',
  'NoNamespaceTest > testGlobalClassFails',
  `${O} > testFails`,
  `${O} > testErrors`,
  `${O} > testMultilineMessage`,
].sort();

describe('phpunit parser', () => {
  for (const name of ['default-mixed.txt', 'verbose-mixed.txt']) {
    it(`${name}: Class > method > data set, with the namespace; counts from the summary; messages and files`, () => {
      const r = parse(name);
      assert.equal(r.runner, 'phpunit');
      assert.deepEqual(ids(r), MIXED_FAILING);
      // Tests: 25, Errors: 2, Failures: 11, Skipped: 2, Incomplete: 1 (risky and warned tests passed, as PHPUnit's exit code says).
      assert.equal(r.failedCount, 13);
      assert.equal(r.skippedCount, 3);
      assert.equal(r.passedCount, 9);
      assert.equal(r.loadError, false);
      assert.equal(r.tests, null, 'the default output names only the tests that did not pass');
      assert.equal(failureOf(r, `${O} > testErrors`).file, '/tmp/greenloop-phpunit/mixed/tests/OutcomesTest.php');
      assert.match(messageOf(r, `${O} > testErrors`), /^DivisionByZeroError: Division by zero\n\n\/tmp\/greenloop-phpunit\/mixed\/tests\/OutcomesTest\.php:25$/);
      assert.match(messageOf(r, `${O} > testMultilineMessage`), /^Failed asserting that two strings are identical\.\n--- Expected\n\+\+\+ Actual\n@@ @@\n 'line one\n-line 2\n\+line two\n/);
      assert.equal(failureOf(r, `${O} > testFails`).message.split('\n')[0], 'one and one');
      assert.ok(!ids(r).some((id) => /testRisky|testWarns|testSkipped|testIncomplete/.test(id)));
    });
  }

  it('the JUnit log gives the same IDs (the dialect turns classname dots back into namespaces), risky tests aside', () => {
    const r = junit('junit-mixed.xml');
    // PHPUnit writes a risky test as an <error> in its log, though its console and exit code call the run unharmed.
    assert.deepEqual(ids(r), [...MIXED_FAILING, `${O} > testRisky`].sort());
    assert.equal(r.skippedCount, 3);
  });

  for (const project of ['php-money', 'php-textkit']) {
    for (const state of ['green', 'one-bug', 'two-bugs', 'compile-error']) {
      it(`${project}, ${state}: the console and the JUnit log give one set of IDs, load errors included`, () => {
        const console = parse(`${project}-${state}.txt`);
        const report = junit(`${project}-${state}.xml`);
        assert.equal(console.runner, 'phpunit');
        assert.deepEqual(ids(console), ids(report));
        assert.equal(console.failedCount, report.failedCount);
        assert.equal(console.passedCount, report.passedCount);
        assert.equal(console.loadError, state === 'compile-error');
        assert.equal(report.loadError, state === 'compile-error');
        assert.equal(ids(console).length, { green: 0, 'one-bug': 1, 'two-bugs': 2, 'compile-error': project === 'php-money' ? 17 : 6 }[state]);
        if (state === 'compile-error') {
          const where = project === 'php-money' ? ['src/Money.php', 22] : ['src/Inflector/Plural.php', 20];
          for (const r of [console, report]) {
            assert.deepEqual(r.loadErrors!.map((e) => [e.file.replace(`/tmp/greenloop-phpunit/${project}/`, ''), e.line]), [where]);
          }
        }
      });
    }
  }

  it('named data sets keep their quotes, parentheses and colons; numbered ones their number', () => {
    const r = parse('php-money-two-bugs.txt');
    assert.deepEqual(ids(r), [
      'Acme\\Money\\Tests\\Unit\\Exchange\\RatesTest > testConvert > data set "USD back to EUR"',
      'Acme\\Money\\Tests\\Unit\\MoneyTest > testFormat > data set "negative amount"',
    ]);
    assert.deepEqual(ids(parse('php-textkit-two-bugs.txt')), [
      'Textkit\\Tests\\Inflector\\OrdinalTest > testOrdinal > data set "hundred and thirteenth"',
      'Textkit\\Tests\\SluggerTest > testSlug > data set "umlauts: "Grüße""',
    ]);
  });

  it('--testdox: its prose titles under the class it names, every test listed, the repeated summary not counted twice', () => {
    const r = parse('testdox-mixed.txt');
    assert.equal(r.failing.length, 13);
    assert.ok(ids(r).includes('Mixed\\Tests\\DataSets > Named with data set "with "quotes" inside"'));
    assert.ok(ids(r).includes('No Namespace > Global class fails'), 'a class without a namespace is named by its heading');
    assert.equal(r.tests!.length, 25);
    assert.equal(r.sharedIds, undefined);
    const money = parse('testdox-php-money-two-bugs.txt');
    assert.deepEqual(ids(money), [
      'Acme\\Money\\Tests\\Unit\\Exchange\\Rates > Convert with data set "USD back to EUR"',
      'Acme\\Money\\Tests\\Unit\\Money > Format with data set "negative amount"',
    ]);
    assert.equal(money.sharedIds, undefined, '"Summary of non-successful tests" repeats the failures');
  });

  it('a test file that does not parse ends PHPUnit before its banner: a load error with the file and line', () => {
    const text = read('loaderror-test-file.txt');
    assert.equal(detectFormat(text), 'phpunit');
    const r = parse('loaderror-test-file.txt');
    assert.equal(r.loadError, true);
    assert.deepEqual(r.loadErrors!.map((e) => [e.file, e.line]), [['/tmp/greenloop-phpunit/broken-test/tests/Unit/MoneyTest.php', 32]]);
    assert.deepEqual(r.failing, []);
  });

  it('a fatal error mid-run (after the progress dots, or shown with display_errors on) is a load error with its file and line', () => {
    for (const name of ['loaderror-fatal.txt', 'loaderror-fatal-displayed.txt']) {
      const r = parse(name);
      assert.equal(r.loadError, true, name);
      assert.deepEqual(r.loadErrors!.map((e) => [e.file, e.line]), [['/tmp/greenloop-phpunit/fatal/src/Wrapper.php', 9]], name);
      assert.match(r.loadErrors![0].message, /Declaration of Textkit\\Wrapper::count/, name);
    }
  });

  it('a bootstrap that throws, does not parse or is missing: a load error on the bootstrap its configuration names', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-phpunit-boot-'));
    try {
      fs.writeFileSync(path.join(dir, 'phpunit.xml'), '<phpunit bootstrap="bootstrap.php" colors="false"></phpunit>\n');
      for (const name of ['loaderror-bootstrap-throws.txt', 'loaderror-bootstrap-parse.txt']) {
        const r = parse(name, dir);
        assert.equal(r.loadError, true, name);
        assert.equal(r.loadErrors![0].file, 'bootstrap.php', name);
      }
      assert.match(parse('loaderror-bootstrap-throws.txt', dir).loadErrors![0].message, /RuntimeException:\ndatabase not configured/);
      assert.match(parse('loaderror-bootstrap-parse.txt', dir).loadErrors![0].message, /ParseError:\nsyntax error, unexpected token "}"/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const missing = parse('loaderror-bootstrap-missing.txt');
    assert.equal(missing.loadError, true);
    assert.equal(missing.loadErrors![0].file, '/tmp/greenloop-phpunit/bootstrap-throws/bootstrap.php');
  });

  it('"No tests executed!" is no test run (the room\'s noTests says so), and reads no test', () => {
    const r = parse('default-nothing.txt');
    assert.deepEqual(r.failing, []);
    assert.equal(r.loadError, false);
    assert.equal(r.passedCount, null);
  });

  it('auto-detection picks phpunit for every console capture, and no other parser claims them', () => {
    for (const name of fs.readdirSync(path.join(__dirname, '..', '..', 'fixtures', 'captured', 'phpunit')).filter((f) => f.endsWith('.txt'))) {
      const text = read(name);
      assert.equal(detectFormat(text), 'phpunit', name);
      const own = phpunitParser.detect(text);
      for (const p of otherParsers('phpunit')) assert.ok(p.detect(text) < own, `${name}: ${p.format}`);
    }
  });
});
