// Which tests ran: every parser names the passed, failed and skipped tests where its format lists them, and says
// null where it lists only failures. The loop's "missing" rule (contract: Ran) stands on these lists.
import { strict as assert } from 'assert';
import { parseOutput } from '../../../src/runners/parseOutput';
import { parseJunitFiles } from '../../../src/runners/readers/junit';
import type { ParseResult } from '../../../src/runners/types';
import type { TestStatus } from '../../../src/ports/verifier';
import { readCapture, readCaptureRaw } from './support';
import { PARSERS } from '../../../src/runners/parseOutput';
import { parseText } from '../../../src/runners/common/lineParser';
import type { FormatOption } from '../../../src/runners/types';

function parse(runner: string, name: string): ParseResult {
  const text = readCaptureRaw(runner, name);
  const r = name.endsWith('.xml') ? parseJunitFiles([text]) : parseOutput(text);
  return r as ParseResult;
}

const count = (r: ParseResult, status: TestStatus) => (r.tests ?? []).filter((t) => t.status === status).length;
const idsWith = (r: ParseResult, status: TestStatus) => (r.tests ?? []).filter((t) => t.status === status).map((t) => t.id).sort();

// Captures whose format names every test: the listing must agree with the runner's own counts and failing set.
const LISTED: Array<[string, string]> = [
  ['node', 'spec-mixed.txt'], ['node', 'tap-mixed.txt'], ['node', 'spec-allpass.txt'],
  ['mocha', 'spec-mixed.txt'], ['mocha', 'spec-mixed-color.txt'], ['mocha', 'tap-mixed.txt'], ['mocha', 'xunit-mixed.xml'],
  ['jest', 'default-mixed-verbose.txt'], ['jest', 'junit-mixed.xml'], ['vitest', 'junit-mixed.xml'],
  ['cargo', 'mixed.txt'], ['go', 'v-mixed.txt'], ['pytest', 'v-rN-mixed.txt'], ['pytest', 'subtests-v-rN.txt'], ['pytest', 'subtests-plugin-v-rN.txt'],
  ['unittest', 'v-mixed.txt'], ['unittest', 'v-mixed-old.txt'],
];

describe('tests each runner output reports as run', () => {
  for (const [runner, name] of LISTED) {
    it(`${runner}/${name}: names as many passed, failed and skipped tests as the runner counted`, () => {
      const r = parse(runner, name);
      assert.ok(r.tests, 'the listing is known');
      assert.equal(count(r, 'passed'), r.passedCount, 'passed');
      assert.equal(count(r, 'skipped'), r.skippedCount, 'skipped');
      assert.deepEqual(idsWith(r, 'failed'), r.failing.map((f) => f.id).sort(), 'every failing test is listed as failed, and no other');
    });
  }

  it('mocha spec: passing and pending tests carry their suite path, without the slow-test duration', () => {
    const r = parse('mocha', 'spec-mixed.txt');
    assert.deepEqual(idsWith(r, 'passed'), ['Calculator > add > adds positives', 'Calculator > divide > throws on zero', 'Users > knows an empty invoice', 'top-level test without a suite']);
    assert.deepEqual(idsWith(r, 'skipped'), ['Calculator > divide > rounds half to even (later)', 'Users > pending: imports CSV']);
  });

  it('node spec: a todo test shown with ✔ is not counted as passed', () => {
    const r = parse('node', 'spec-mixed.txt');
    assert.ok((r.tests ?? []).some((t) => t.id === 'Users > todo: exports CSV' && t.status === 'skipped'));
  });

  it('node spec and TAP name the same tests', () => {
    const spec = parse('node', 'spec-mixed.txt').tests!.map((t) => `${t.status} ${t.id}`).sort();
    const tap = parse('node', 'tap-mixed.txt').tests!.map((t) => `${t.status} ${t.id}`).sort();
    assert.deepEqual(spec, tap);
  });

  it('jest --verbose: nested describes make the path, todo and skipped tests are skipped', () => {
    const r = parse('jest', 'default-mixed-verbose.txt');
    assert.deepEqual(idsWith(r, 'skipped'), ['Calculator > multiply > handles overflow', 'Parser > records > supports nested records']);
    assert.ok(idsWith(r, 'passed').includes('Util > is commutative'));
  });

  it('cargo: doc tests and integration tests are listed, ignored tests as skipped', () => {
    const r = parse('cargo', 'mixed.txt');
    assert.ok(idsWith(r, 'passed').includes('mixed/src/lib.rs - add (line 5)'));
    assert.deepEqual(idsWith(r, 'skipped'), ['tests > later']);
  });

  it('a file that died before reporting is not a test that ran: it is named apart, as a file that did not load (node)', () => {
    const r = parse('node', 'tap-loaderror.txt');
    assert.equal(r.loadError, true);
    assert.ok(!(r.tests ?? []).some((t) => /broken\.test\.js$/.test(t.id)));
    assert.ok((r.loadErrors ?? []).some((e) => /broken\.test\.js$/.test(e.file)));
  });

  const ONLY_FAILURES: Array<[string, string]> = [
    ['go', 'plain-mixed.txt'], ['pytest', 'q-mixed.txt'], ['jest', 'default-mixed.txt'], ['jest', 'default-many.txt'], ['vitest', 'default-mixed.txt'],
  ];
  for (const [runner, name] of ONLY_FAILURES) {
    it(`${runner}/${name}: lists only failures, so the listing is unknown (null) and counts must do`, () => {
      assert.equal(parse(runner, name).tests, null);
    });
  }
});

// Issue 30: a parser's memory follows the tests, not the lines. Each runner's real output printed 500 times over (a
// suite run in a loop, a flood of one test's lines) reaches the parser's own lists — before tidyResult — once per test.
describe('a runner output repeated 500 times: each parser keeps one entry per test and per failure', () => {
  const REPEATED: Array<[string, string, FormatOption]> = [
    ['mocha', 'spec-mixed.txt', 'mocha'], ['mocha', 'tap-mixed.txt', 'tap'], ['node', 'spec-mixed.txt', 'node'], ['node', 'tap-mixed.txt', 'tap'],
    ['jest', 'default-mixed-verbose.txt', 'jest'], ['pytest', 'v-rN-mixed.txt', 'pytest'], ['go', 'v-mixed.txt', 'go'], ['cargo', 'mixed.txt', 'cargo'],
    ['pytest', 'subtests-plugin-v-rN.txt', 'pytest'], ['unittest', 'v-mixed.txt', 'unittest'], ['unittest', 'v-mixed-old.txt', 'unittest'],
  ];
  for (const [runner, name, format] of REPEATED) {
    it(`${runner}/${name}`, () => {
      const once = readCapture(runner, name);
      const parser = PARSERS.find((p) => p.format === format)!;
      const read = (text: string) => parseText(parser.lines!(), text);
      const single = read(once);
      const repeated = read(`${once}\n`.repeat(500));
      const ids = (list: Array<{ id: string }> | null) => [...new Set((list ?? []).map((t) => t.id))].sort();
      assert.deepEqual(ids(repeated.failing), ids(single.failing));
      assert.equal(repeated.failing.length, ids(repeated.failing).length, 'each failure once');
      if (repeated.tests) {
        assert.deepEqual(ids(repeated.tests), ids(single.tests));
        assert.equal(repeated.tests.length, ids(repeated.tests).length, 'each test once');
      }
    });
  }
});
