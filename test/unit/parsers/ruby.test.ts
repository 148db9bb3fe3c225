// RSpec and minitest read from real output captured by test/fixtures/regenerate/ruby.sh (Debian's ruby-rspec 3.12,
// ruby-minitest 5.17, rake 13) on the projects test/fixtures/projects/ruby-inflect and ruby-ledger in four states, and on
// the odd suites of test/fixtures/runners/ruby. Which tests fail is not decided here: each state's `.truth.json` is the
// runner's own account (RSpec's example metadata, minitest's results), written by the same script without Greenloop.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { rspecParser } from '../../../src/runners/rspec/parser';
import { minitestParser } from '../../../src/runners/minitest/parser';
import { readGroups } from '../../../src/runners/rspec/outline';
import { detectFormat, parseReports, tidyResult } from '../../../src/runners/parseOutput';
import type { ParseResult } from '../../../src/runners/types';
import { assertRanksFirst, ids, messageOf, readCapture } from './support';

const PROJECTS = path.join(__dirname, '..', '..', 'fixtures', 'projects');
const INFLECT = path.join(PROJECTS, 'ruby-inflect');
const LEDGER = path.join(PROJECTS, 'ruby-ledger');
const truth = (name: string): { failing: string[]; loadError: boolean; ran: number; tests: Array<{ id: string; status: string }> } =>
  JSON.parse(readCapture('ruby', name)) as never;
/** Read as the verifier reads a run in the project's folder; `null`: a capture read away from any checkout. */
const rspec = (name: string, cwd: string | null = INFLECT): ParseResult => tidyResult(rspecParser.parse(readCapture('ruby', name), { cwd: cwd ?? undefined }));
const minitest = (name: string, cwd: string | null = LEDGER): ParseResult => tidyResult(minitestParser.parse(readCapture('ruby', name), { cwd: cwd ?? undefined }));

describe('RSpec parser', () => {
  for (const state of ['green', 'one', 'two', 'compile']) {
    it(`ruby-inflect, ${state}: the console and the JSON report give the IDs RSpec's own metadata gives`, () => {
      const t = truth(`rspec-inflect-${state}.truth.json`);
      for (const name of [`rspec-inflect-${state}.txt`, `rspec-inflect-${state}.json`]) {
        const r = rspec(name);
        assert.equal(r.runner, 'rspec');
        assert.deepEqual(ids(r), t.failing, name);
        assert.equal(r.loadError, t.loadError, name);
        assert.equal((r.passedCount ?? 0) + (r.failedCount ?? 0) + (r.skippedCount ?? 0), t.ran, name);
      }
      // The JSON names every example, as RSpec's metadata does.
      const json = rspec(`rspec-inflect-${state}.json`);
      assert.deepEqual(json.tests!.map((x) => x.id).sort(), t.tests.map((x) => x.id).sort());
    });
  }

  it("rspec_junit_formatter's JUnit XML, read by the JUnit reader with RSpec's dialect, gives the console's IDs and files", () => {
    for (const state of ['green', 'one', 'two']) {
      const t = truth(`rspec-inflect-${state}.truth.json`);
      const r = parseReports('junit', [readCapture('ruby', `rspec-inflect-${state}.xml`)], { cwd: INFLECT });
      assert.deepEqual(ids(r), t.failing, state);
      assert.deepEqual(r.tests!.map((x) => x.id).sort(), t.tests.map((x) => x.id).sort(), state);
      assert.ok(r.failing.every((f) => /^spec\/inflect\/\w+_spec\.rb$/.test(f.file ?? '')), JSON.stringify(r.failing));
    }
    // A run whose files did not load is an empty suite there: no test ran, never green (the console names the load error).
    const compile = parseReports('junit', [readCapture('ruby', 'rspec-inflect-compile.xml')], { cwd: INFLECT });
    assert.deepEqual([compile.failing.length, compile.passedCount], [0, 0]);
  });

  it('groups made in a loop (`context "around #{base}"`), a described constant joined to `#x`, an example beside its groups', () => {
    const json = rspec('rspec-inflect-green.json');
    const all = json.tests!.map((x) => x.id);
    assert.ok(all.includes('Inflect::Numbers > .ordinalize > around 1000 > writes 1001 with st'));
    assert.ok(all.includes('Inflect::Numbers > .ordinalize > keeps the sign of negative numbers'));
    assert.ok(all.includes('Inflect::Words > #pluralize > with irregular nouns > knows the plural of mouse'));
  });

  it('the failure block gives the message and the example its spec file; the documentation format reads the same', () => {
    const r = rspec('rspec-inflect-two.txt');
    const id = 'Inflect::Words > #pluralize > adds es after a sibilant';
    assert.match(messageOf(r, id), /^Failure\/Error: expect\(%w\[bus box church\]/);
    assert.match(messageOf(r, id), /got: \["buses", "boxes", "churchs"\]/);
    assert.equal(r.failing.find((f) => f.id === id)!.file, 'spec/inflect/words_spec.rb');
    assert.deepEqual(ids(rspec('rspec-inflect-two-doc.txt')), ids(r));
  });

  it('a narrowed run (file:line, or -e with --format json) names the same IDs; the JSON lists each example that ran', () => {
    const two = truth('rspec-inflect-two.truth.json').failing;
    assert.deepEqual(ids(rspec('rspec-inflect-narrowed.txt')), two);
    const json = rspec('rspec-inflect-narrowed-json.txt');
    assert.deepEqual(ids(json), two);
    assert.deepEqual(json.tests!.map((x) => x.id).sort(), two);
  });

  it('without the spec files at hand, an example is its full description, one title, from the console and the JSON alike', () => {
    assert.deepEqual(ids(rspec('rspec-inflect-one.txt', null)), ['Inflect::Words#pluralize adds es after a sibilant']);
    assert.deepEqual(ids(rspec('rspec-inflect-one.json', null)), ['Inflect::Words#pluralize adds es after a sibilant']);
  });

  it('a file that does not load is a load error with the file and line where Ruby stopped, never "no tests"', () => {
    const compile = rspec('rspec-inflect-compile.txt');
    assert.deepEqual(compile.loadErrors!.map((e) => [e.file, e.line]), [['lib/inflect/words.rb', 23]]);
    assert.match(compile.loadErrors![0].message, /SyntaxError/);
    for (const name of ['rspec-syntax-error.txt', 'rspec-syntax-error.json']) {
      const r = rspec(name, null);
      assert.equal(r.loadError, true, name);
      assert.deepEqual(r.loadErrors!.map((e) => [e.file, e.line]), [['spec/broken_spec.rb', 3]], name);
    }
    for (const name of ['rspec-load-raises.txt', 'rspec-load-raises-json.txt']) {
      const r = rspec(name, null);
      assert.deepEqual(r.loadErrors!.map((e) => [e.file, e.line]), [['spec/raises_spec.rb', 1]], name);
      assert.match(r.loadErrors![0].message, /LoadError:\n\s+cannot load such file/, name);
    }
  });

  it('no examples: counted as none ran (never green), not a load error', () => {
    const r = rspec('rspec-empty.txt', null);
    assert.equal(r.loadError, false);
    assert.equal((r.passedCount ?? 0) + (r.failedCount ?? 0), 0);
  });

  it('auto detection picks RSpec for its console and its JSON', () => {
    for (const name of ['rspec-inflect-two.txt', 'rspec-inflect-compile.txt', 'rspec-inflect-two.json', 'rspec-syntax-error.txt']) {
      assertRanksFirst(rspecParser, readCapture('ruby', name));
      assert.equal(detectFormat(readCapture('ruby', name)), 'rspec', name);
    }
  });

  it("the spec file's groups: their lines and descriptions, constants, strings, interpolations and metadata", () => {
    const groups = readGroups([
      'RSpec.describe Foo::Bar, type: :model do',
      "  describe '#baz', :focus do",
      '    [1, 2].each do |n|',
      '      context "with #{n} items" do',
      "        it 'works' do",
      '        end',
      '      end',
      '    end',
      '  end',
      "  context('plain') { it('x') { } }",
      'end',
    ].join('\n'));
    assert.deepEqual(groups.map((g) => [g.start, g.end, g.pattern, g.constant]), [
      [1, 11, 'Foo::Bar', true],
      [2, 9, '\\#baz', false],
      [4, 7, 'with .*? items', false],
    ].map(([s, e, p, c]) => [s, e, (p as string).replace('\\#', '#'), c]));
  });
});

describe('minitest parser', () => {
  for (const state of ['green', 'one', 'two', 'compile']) {
    it(`ruby-ledger, ${state}: \`rake test\`'s console gives the IDs minitest's own results give`, () => {
      const t = truth(`minitest-ledger-${state}.truth.json`);
      const r = minitest(`minitest-ledger-${state}.txt`);
      assert.equal(r.runner, 'minitest');
      assert.deepEqual(ids(r), t.failing);
      assert.equal(r.loadError, t.loadError);
      if (!t.loadError) assert.equal((r.passedCount ?? 0) + (r.failedCount ?? 0) + (r.skippedCount ?? 0), t.ran);
    });
  }

  it('-v names every test with its outcome; a narrowed plain-ruby run reads the same IDs', () => {
    const t = truth('minitest-ledger-two.truth.json');
    const v = minitest('minitest-ledger-two-v.txt');
    assert.deepEqual(ids(v), t.failing);
    assert.deepEqual(v.tests!.map((x) => `${x.id} ${x.status}`).sort(), t.tests.map((x) => `${x.id} ${x.status}`).sort());
    assert.deepEqual(ids(minitest('minitest-ledger-narrowed.txt')), ['Ledger::MoneyTest > test_parses_negative_amounts']);
  });

  it('failures and errors, nested classes and spec-style describes with spaces; skips counted; each test its file', () => {
    for (const name of ['minitest-mixed.txt', 'minitest-mixed-ruby.txt']) {
      const r = minitest(name, null);
      assert.deepEqual(ids(r), ['MixedTest > test_errors', 'MixedTest > test_fails', 'MixedTest::Nested > test_nested_fails', 'Spec style::inner > test_0001_fails with a space in its name'], name);
      assert.deepEqual([r.passedCount, r.failedCount, r.skippedCount], [1, 4, 1], name);
      assert.ok(r.failing.every((f) => f.file === 'test/mixed_test.rb'), name);
      assert.match(messageOf(r, 'MixedTest > test_errors'), /^ArgumentError: invalid value for Integer\(\): "not a number"/);
      assert.match(messageOf(r, 'MixedTest > test_fails'), /^the words differ\.\nExpected: "three"/);
    }
  });

  it('a SyntaxError while a file is required is a load error with the file and line it names', () => {
    const lib = minitest('minitest-ledger-compile.txt');
    assert.deepEqual(lib.loadErrors!.map((e) => [e.file, e.line]), [['lib/ledger/money.rb', 20]]);
    const test = minitest('minitest-syntax-error.txt', null);
    assert.equal(test.loadError, true);
    assert.deepEqual(test.loadErrors!.map((e) => [e.file, e.line]), [['test/broken_test.rb', 6]]);
    assert.match(test.loadErrors![0].message, /syntax error/);
  });

  it("a run that died before minitest reported is minitest's when rake's loader is in it, or when the command starts minitest", () => {
    assert.equal(detectFormat(readCapture('ruby', 'minitest-syntax-error.txt')), 'minitest');
    assert.ok(minitestParser.detectHinted!(readCapture('ruby', 'minitest-ledger-compile.txt')) > 0.5);
  });

  it('auto detection picks minitest for its console', () => {
    for (const name of ['minitest-ledger-two.txt', 'minitest-mixed.txt', 'minitest-ledger-two-v.txt']) {
      assertRanksFirst(minitestParser, readCapture('ruby', name));
      assert.equal(detectFormat(readCapture('ruby', name)), 'minitest', name);
    }
  });
});
