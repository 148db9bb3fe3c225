// Expected values come from the module in test/fixtures/runners/go (which tests fail is decided there),
// read back from real `go test` output captured by test/fixtures/regenerate/go.sh. go prints no colours.
import { strict as assert } from 'assert';
import { join } from 'path';
import { goParser } from '../../../src/runners/go/parser';
import { detectFormat, parseOutput } from '../../../src/runners/parseOutput';
import { executedCount } from '../../../src/verify/commandVerifier';
import { classifyRun } from '../../../src/verify/runClass';
import { cannotRunSentence } from '../../../src/verify/cannotRun';
import type { ParseResult } from '../../../src/runners/types';
import { ids, messageOf, readCapture } from './support';

const read = (name: string): string => readCapture('go', name);
const parse = (name: string): ParseResult => goParser.parse(read(name));

const MIXED_FAILING = [
  'TestAdd > negatives',
  'TestSub > zero',
  'TestOuter > inner > deep',
  'TestQuotes > say_"hi"_(loudly)',
  'TestNilMap',
].sort();

describe('go test parser', () => {
  for (const name of ['plain-mixed.txt', 'v-mixed.txt']) {
    it(`${name}: leaf subtests only, split on "/", with their log lines as messages`, () => {
      const r = parse(name);
      assert.deepEqual(ids(r), MIXED_FAILING);
      // Parents fail because a child failed; they are not listed.
      for (const parent of ['TestAdd', 'TestOuter', 'TestOuter > inner', 'TestQuotes', 'TestSub']) {
        assert.ok(!ids(r).includes(parent), parent);
      }
      assert.ok(!ids(r).includes('TestAdd > zero'), 'same leaf name under another test passed');
      assert.equal(r.failedCount, 5);
      assert.equal(r.loadError, false);
      assert.equal(
        messageOf(r, 'TestAdd > negatives'),
        'calc_test.go:13: Add(-2, -3) = -5\n    want -6\n    (the expectation is wrong on purpose)',
      );
      assert.equal(messageOf(r, 'TestOuter > inner > deep'), 'calc_test.go:36: deep failure');
      assert.equal(r.failing.find((f) => f.id === 'TestSub > zero')?.file, 'calc_test.go');
      // A runtime panic, not an assertion: the panic line and the frame in the code under test survive.
      const panic = messageOf(r, 'TestNilMap');
      assert.match(panic, /^panic: assignment to entry in nil map/);
      assert.match(panic, /panicky\.go:3/);
    });
  }

  it('counts passes and skips only when -v printed them', () => {
    const v = parse('v-mixed.txt');
    assert.equal(v.passedCount, 5);
    assert.equal(v.skippedCount, 1);
    const plain = parse('plain-mixed.txt');
    assert.equal(plain.passedCount, null);
    assert.equal(plain.skippedCount, null);
  });

  it('reads the same failures from plain and -v output', () => {
    const strip = (r: ParseResult) => r.failing.map((f) => ({ ...f, message: f.message.replace(/0x[0-9a-f]+\??|goroutine \d+/g, '') }));
    assert.deepEqual(strip(parse('plain-mixed.txt')), strip(parse('v-mixed.txt')));
  });

  it('all passing', () => {
    const v = parse('v-allpass.txt');
    assert.deepEqual(v.failing, []);
    assert.equal(v.passedCount, 2);
    assert.equal(v.failedCount, 0);
    assert.equal(v.skippedCount, 0);
    assert.equal(v.loadError, false);
    const plain = parse('plain-allpass.txt');
    assert.deepEqual(plain.failing, []);
    assert.equal(plain.failedCount, 0);
    assert.equal(plain.loadError, false);
  });

  for (const name of ['plain-loaderror.txt', 'v-loaderror.txt']) {
    it(`${name}: a package that does not compile is a load error even though the others pass`, () => {
      const r = parse(name);
      assert.equal(r.loadError, true);
      assert.deepEqual(r.failing, []);
      assert.equal(r.failedCount, 0);
    });
  }

  // Issue 30: a run in which no test ran said nothing of its count, so the verifier called it green.
  for (const name of ['plain-notestfiles.txt', 'v-notestfiles.txt', 'json-notestfiles.txt', 'plain-norun.txt', 'v-norun.txt', 'json-norun.txt']) {
    it(`${name}: every package ran no test ("[no test files]", "[no tests to run]"), so the counts say none ran`, () => {
      const r = parseOutput(read(name));
      assert.equal(r.runner, 'go');
      assert.deepEqual(r.tests, []);
      assert.equal(r.passedCount, 0);
      assert.equal(r.failedCount, 0);
      assert.equal(executedCount(r), 0);
      const kind = classifyRun(r, { exitCode: 0, signal: null, timedOut: false, cancelled: false, named: 0, executed: executedCount(r), output: read(name) });
      assert.match(kind.noTests ?? '', /^The test command ran no tests; .* never green\.$/);
    });
  }

  it('plain-sometests.txt: one package ran its tests, another had none: how many ran is unknown, not zero', () => {
    const r = parseOutput(read('plain-sometests.txt'));
    assert.equal(r.passedCount, null);
    assert.equal(r.tests, null);
    assert.equal(executedCount(r), null);
  });

  for (const [name, said] of [
    ['nopackages.txt', 'go: warning: "example.com/greenloop/nothing/..." matched no packages'],
    ['nosuchdir.txt', 'pattern ./nothing/...: lstat ./nothing/: no such file or directory'],
    ['nogofiles.txt', 'no Go files in /'],
  ] as const) {
    it(`${name}: a package list that matches nothing cannot run, in one sentence quoting go`, () => {
      const sentence = cannotRunSentence({ exitCode: 1, output: read(name) }, 'go test ./nothing/...', '/w', 0);
      assert.ok(sentence?.startsWith(`The test command \`go test ./nothing/...\` found no tests to run (${said}`), sentence ?? 'no sentence');
    });
  }

  it('auto detection picks go for every capture', () => {
    for (const name of ['plain-mixed.txt', 'v-mixed.txt', 'plain-allpass.txt', 'v-allpass.txt',
      'plain-loaderror.txt', 'v-loaderror.txt', 'plain-notestfiles.txt', 'json-notestfiles.txt', 'plain-norun.txt', 'v-norun.txt']) {
      assert.equal(detectFormat(read(name)), 'go', name);
    }
  });

  it('scores other runners\' output low', () => {
    for (const other of ['pytest/q-mixed.txt', 'cargo/mixed.txt', 'tsc/plain-errors.txt']) {
      assert.ok(goParser.detect(read(join('..', other))) < 0.2, other);
    }
  });
});
