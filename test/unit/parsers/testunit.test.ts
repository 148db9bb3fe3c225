// test-unit read from real output captured by test/fixtures/regenerate/testunit.sh (the test-unit 3.5.3 Debian's Ruby 3.1
// bundles) on the project test/fixtures/projects/ruby-units in four states — run by ruby/matrix's own command, a `-e`
// that requires every test file with test-unit's options after `--` — and on the odd suites of
// test/fixtures/runners/ruby/testunit-*. Which tests fail is not decided here: each `.truth.json` is test-unit's own
// TestResult (regenerate/ruby/testunit_truth.rb), written by the same script without Greenloop.
import { strict as assert } from 'assert';
import * as path from 'path';
import { splitTestName, testunitParser } from '../../../src/runners/testunit/parser';
import { detectFormat, tidyResult } from '../../../src/runners/parseOutput';
import type { ParseResult } from '../../../src/runners/types';
import { assertRanksFirst, ids, messageOf, readCapture } from './support';

const UNITS = path.join(__dirname, '..', '..', 'fixtures', 'projects', 'ruby-units');
const truth = (name: string): { failing: string[]; loadError: boolean; ran: number; tests: Array<{ id: string; status: string }> } =>
  JSON.parse(readCapture('testunit', name)) as never;
const read = (name: string, cwd: string | null = UNITS): ParseResult => tidyResult(testunitParser.parse(readCapture('testunit', name), { cwd: cwd ?? undefined }));
const count = (r: ParseResult): number => (r.passedCount ?? 0) + (r.failedCount ?? 0) + (r.skippedCount ?? 0);

describe('test-unit parser', () => {
  for (const state of ['green', 'one', 'two', 'compile']) {
    it(`ruby-units, ${state}: ruby/matrix's -e command's console gives the IDs test-unit's own results give`, () => {
      const t = truth(`units-${state}.truth.json`);
      const r = read(`units-${state}.txt`);
      assert.equal(r.runner, 'testunit');
      assert.deepEqual(ids(r), t.failing);
      assert.equal(r.loadError, t.loadError);
      if (!t.loadError) assert.equal(count(r), t.ran);
    });
  }

  it('rake test prints the same console; the XML report names every test with its status, as test-unit does', () => {
    const t = truth('units-two.truth.json');
    assert.deepEqual(ids(read('units-two-rake.txt')), t.failing);
    const xml = read('units-two-xml.txt');
    assert.deepEqual(ids(xml), t.failing);
    assert.deepEqual(xml.tests!.map((x) => `${x.id} ${x.status}`).sort(), t.tests.map((x) => `${x.id} ${x.status}`).sort());
    assert.deepEqual([xml.passedCount, xml.failedCount, xml.skippedCount], [8, 3, 1]);
    assert.equal(xml.stoppedEarly, undefined);
  });

  it('a run narrowed as Greenloop narrows it (--testcase, --name, --runner=xml) names exactly the targets', () => {
    const r = read('units-narrowed-xml.txt');
    const t = truth('units-two.truth.json').failing;
    assert.deepEqual(ids(r), t);
    assert.deepEqual(r.tests!.map((x) => x.id).sort(), t);
  });

  it("each failure its message first, then where: the test's file, and the file:line test-unit printed", () => {
    const r = read('units-two.txt');
    const error = r.failing.find((f) => f.id === 'TestTemperature::Parse > test_reads_celsius')!;
    assert.equal(error.file, 'test/units/test_temperature.rb');
    assert.match(error.message, /^ArgumentError: invalid value for Float\(\): "21\.5C"\n/);
    assert.match(error.message, /^lib\/units\/temperature\.rb:9:in `parse'$/m);
    assert.match(error.message, /^test\/units\/test_temperature\.rb:22:in `test_reads_celsius'$/m);
    const failure = r.failing.find((f) => f.id === 'TestLength > test_converts_meters_to_kilometers')!;
    assert.equal(failure.file, 'test/units/test_length.rb');
    assert.match(failure.message, /^ {2}<1\.5> -\/\+ <1\.0e-09> was expected to include/);
    assert.match(failure.message, /test\/units\/test_length\.rb:8:in `test_converts_meters_to_kilometers'/);
    // The XML's detail and backtrace read the same way.
    const xml = read('units-two-xml.txt').failing.find((f) => f.id === error.id)!;
    assert.equal(xml.file, 'test/units/test_temperature.rb');
    assert.match(xml.message, /^ArgumentError: invalid value for Float\(\): "21\.5C"\n[\s\S]*test\/units\/test_temperature\.rb:22:in `test_reads_celsius'/);
  });

  it('failures, an error, an omission, a pending test, data-driven and string names, a sub_test_case and a nested class', () => {
    const t = truth('mixed.truth.json');
    for (const name of ['mixed.txt', 'mixed-at-end.txt', 'mixed-verbose.txt']) {
      const r = read(name, null);
      assert.deepEqual(ids(r), t.failing, name);
      assert.deepEqual([r.passedCount, r.failedCount, r.skippedCount], [3, 6, 2], name);
      assert.equal(count(r), t.ran, name);
      assert.ok(r.failing.every((f) => f.file === 'test/test_mixed.rb'), name);
      assert.match(messageOf(r, 'TestMixed > test_errors'), /^ArgumentError: invalid value for Integer\(\): "not a number"/, name);
      assert.match(messageOf(r, 'TestMixed > test_fails'), /^the words differ\n<"three"> expected but was\n<"two">/, name);
      assert.match(messageOf(r, 'TestMixed > test_fails'), /test\/test_mixed\.rb:13:in `test_fails'/, name);
    }
    // The XML names each test and its status (omitted and pending are skipped, never failed), and passes over what a
    // test printed; it names a data-driven test by its method alone, so its data sets are one test there.
    const xml = read('mixed-xml.txt', null);
    const byMethod = (id: string) => id.replace(/\[[^\]]*\]$/, '');
    assert.deepEqual(ids(xml), [...new Set(t.failing.map(byMethod))].sort());
    assert.deepEqual(xml.tests!.filter((x) => x.status === 'skipped').map((x) => x.id).sort(), ['TestMixed > test_omitted', 'TestMixed > test_pending']);
    assert.ok(xml.tests!.some((x) => x.id === 'TestMixed > test_prints' && x.status === 'passed'));
  });

  it('a SyntaxError while a file is required is a load error with the file and line it names, however the files were loaded', () => {
    for (const name of ['units-compile.txt', 'units-compile-rake.txt', 'units-compile-xml.txt']) {
      const r = read(name);
      assert.equal(r.loadError, true, name);
      assert.deepEqual(r.loadErrors!.map((e) => [e.file, e.line]), [['lib/units/length.rb', 27]], name);
    }
    for (const name of ['broken.txt', 'broken-xml.txt', 'broken-collector.txt']) {
      const r = read(name, null);
      assert.equal(r.loadError, true, name);
      assert.deepEqual(r.loadErrors!.map((e) => [e.file, e.line]), [['test/test_broken.rb', 8]], name);
      assert.match(r.loadErrors![0].message, /syntax error/, name);
    }
  });

  it('an XML report cut short (the run was killed) says the run stopped early', () => {
    const cut = readCapture('testunit', 'units-two-xml.txt').split('\n').slice(0, 120).join('\n');
    assert.match(testunitParser.parse(cut).stoppedEarly ?? '', /ended before the run did/);
  });

  it('auto detection picks test-unit for its console and its XML, and never for minitest\'s; a bare crash is its own when the command runs it', () => {
    for (const name of ['units-two.txt', 'units-green.txt', 'units-two-rake.txt', 'units-two-xml.txt', 'mixed.txt', 'mixed-verbose.txt', 'mixed-xml.txt', 'mixed-at-end.txt']) {
      assertRanksFirst(testunitParser, readCapture('testunit', name));
      assert.equal(detectFormat(readCapture('testunit', name)), 'testunit', name);
    }
    for (const name of ['minitest-ledger-two.txt', 'minitest-mixed.txt']) assert.equal(detectFormat(readCapture('ruby', name)), 'minitest', name);
    assert.equal(detectFormat(readCapture('testunit', 'broken.txt'), ['testunit']), 'testunit');
  });

  it("splits test-unit's `test_name(Class)` where test-unit joined them, parentheses in names included", () => {
    assert.deepEqual(splitTestName('test_x(TestA)'), { test: 'test_x', testCase: 'TestA', rest: '' });
    assert.deepEqual(splitTestName('test: a (b) c(TestA::sub (x)): msg (y)'), { test: 'test: a (b) c', testCase: 'TestA::sub (x)', rest: 'msg (y)' });
    assert.deepEqual(splitTestName('test_x[data (1)](TestA):'), { test: 'test_x[data (1)]', testCase: 'TestA', rest: '' });
    assert.equal(splitTestName('no class here'), null);
  });
});
