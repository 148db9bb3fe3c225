// dotnet test on RECORDED outputs (test/fixtures/captured/dotnet, README.md there: written by hand after real .NET 8
// output, as no .NET SDK installs here): the console at minimal and normal verbosity, TRX and the JUnit logger give
// one set of IDs, `Namespace.Class > Method(args)` with a nested class one part more; MSBuild errors are load errors.
import { strict as assert } from 'assert';
import { dotnetParser } from '../../../src/runners/dotnet/parser';
import { trxParser } from '../../../src/runners/dotnet/trx';
import { detectFormat, parseReports, tidyResult } from '../../../src/runners/parseOutput';
import type { ParseResult } from '../../../src/runners/types';
import { failureOf, ids, messageOf, otherParsers, readCapture, readCaptureRaw } from './support';

const read = (name: string): string => readCapture('dotnet', name);
const parse = (name: string): ParseResult => tidyResult(dotnetParser.parse(read(name)));
const junit = (name: string): ParseResult => tidyResult(parseReports('junit', [readCaptureRaw('dotnet', name)]));

const SIGN = [
  'Ledger.Tests.MoneyTests > Formatting > KeepsTheSign(cents: -1999, expected: "-19.99")',
  'Ledger.Tests.MoneyTests > Formatting > KeepsTheSign(cents: -5, expected: "-0.05")',
];
const PARSE = 'Ledger.Tests.Parsing.AmountParserTests > ParsesDecimals(text: "1,234.00", cents: 123400)';

describe('dotnet test parser (recorded outputs)', () => {
  it('the states of dotnet-ledger: green, one bug, two bugs; counts from the summary line', () => {
    const green = parse('ledger-green.txt');
    assert.equal(green.runner, 'dotnet');
    assert.deepEqual(ids(green), []);
    assert.deepEqual([green.passedCount, green.failedCount, green.skippedCount, green.loadError], [14, 0, 0, false]);
    assert.deepEqual(ids(parse('ledger-one-bug.txt')), SIGN);
    const two = parse('ledger-two-bugs.txt');
    assert.deepEqual(ids(two), [...SIGN, PARSE].sort());
    assert.deepEqual([two.passedCount, two.failedCount, two.skippedCount], [11, 3, 0]);
    assert.equal(two.tests, null, 'minimal verbosity names only the failures');
  });

  it('normal verbosity, TRX and the JUnit logger give the same IDs as the default console', () => {
    const expected = [...SIGN, PARSE].sort();
    const normal = parse('ledger-two-bugs-normal.txt');
    const trx = tidyResult(trxParser.parse(readCaptureRaw('dotnet', 'ledger-two-bugs.trx')));
    const xml = junit('ledger-two-bugs.junit.xml');
    for (const [how, r] of [['normal', normal], ['trx', trx], ['junit', xml]] as const) {
      assert.deepEqual(ids(r), expected, how);
      assert.deepEqual([r.passedCount, r.failedCount, r.skippedCount], [11, 3, 0], how);
      assert.equal(r.tests!.length, 14, how);
      assert.ok(r.tests!.some((t) => t.id === 'Ledger.Tests.MoneyTests > Formatting > PadsCents' && t.status === 'passed'), how);
      assert.ok(r.tests!.some((t) => t.id === 'Ledger.Tests.MoneyTests > Multiplies(cents: 1000, factor: "0.15", expected: 150)'), how);
    }
    assert.equal(detectFormat(readCaptureRaw('dotnet', 'ledger-two-bugs.trx')), 'trx');
    assert.equal(trx.runner, 'trx');
  });

  it("a failure's message and its test's own file (the stack frame of its method, not the code's)", () => {
    const r = parse('ledger-two-bugs.txt');
    assert.equal(failureOf(r, PARSE).file, '/home/dev/ledger/tests/Ledger.Tests/Parsing/AmountParserTests.cs');
    assert.match(messageOf(r, PARSE), /^System\.FormatException : The input string '1,234\.00' was not in a correct format\.\nStack Trace:\n {2}at System\.Number/);
    assert.match(messageOf(r, PARSE), /AmountParser\.cs:line 11/);
    assert.match(messageOf(r, SIGN[0]), /^Assert\.Equal\(\) Failure: Strings differ\n/);
    assert.equal(failureOf(r, SIGN[0]).file, '/home/dev/ledger/tests/Ledger.Tests/MoneyTests.cs', 'a nested class\'s frame reads Outer.Inner');
  });

  it('NUnit prints the method alone: the class comes from its stack frame, as the JUnit logger names it', () => {
    const r = parse('nunit-rounding.txt');
    const expected = ['Ledger.Tests.RoundingTests > Rounds(2.345m,2.35m)', 'Ledger.Tests.Splitting.SplitTests > HalvesEvenly'];
    assert.deepEqual(ids(r), expected);
    assert.deepEqual(ids(junit('nunit-rounding.junit.xml')), expected);
    assert.deepEqual([r.passedCount, r.failedCount, r.skippedCount], [4, 2, 1]);
  });

  it('a build that fails is a load error with its file and line, said once however often MSBuild repeats it', () => {
    for (const name of ['ledger-compile-error.txt', 'ledger-compile-error-summary.txt']) {
      const text = read(name);
      assert.equal(detectFormat(text), 'dotnet', name);
      const r = parse(name);
      assert.equal(r.loadError, true, name);
      assert.deepEqual(r.loadErrors!.map((e) => [e.file, e.line, e.message]), [['/home/dev/ledger/src/Ledger/Money.cs', 8, 'error CS1002: ; expected']], name);
      assert.deepEqual(r.failing, [], name);
    }
  });

  it('"No test matches the given testcase filter" reads no test', () => {
    const r = parse('ledger-no-tests.txt');
    assert.deepEqual(r.failing, []);
    assert.equal(r.loadError, false);
    assert.equal(r.passedCount, null);
  });

  it('auto-detection picks dotnet (or trx) for every recording, and no other parser claims them', () => {
    for (const name of ['ledger-green.txt', 'ledger-one-bug.txt', 'ledger-two-bugs.txt', 'ledger-two-bugs-normal.txt', 'nunit-rounding.txt', 'ledger-no-tests.txt']) {
      const text = read(name);
      assert.equal(detectFormat(text), 'dotnet', name);
      for (const p of otherParsers('dotnet').filter((o) => o.format !== 'trx')) assert.ok(p.detect(text) < dotnetParser.detect(text), `${name}: ${p.format}`);
    }
  });
});
