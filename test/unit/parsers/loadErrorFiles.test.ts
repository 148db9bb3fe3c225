// Test files that did not load, as each runner reports them in real captured output (test/fixtures/regenerate/): named
// apart from the failing tests, never counted as one, each with what the runner said about it.
import { strict as assert } from 'assert';
import { parseOutput } from '../../../src/runners/parseOutput';
import type { ParsedOutput } from '../../../src/runners/parseOutput';
import { readCaptureRaw } from './support';

const parse = (runner: string, name: string): ParsedOutput => parseOutput(readCaptureRaw(runner, name));
const files = (r: ParsedOutput): string[] => (r.loadErrors ?? []).map((e) => e.file);

interface Case {
  runner: string;
  capture: string;
  /** The files, by how each runner names them (absolute paths are matched by their end). */
  notLoaded: RegExp[];
  failing: number;
  /** A word of what the runner said about the first file. */
  said: RegExp;
}

const CASES: Case[] = [
  // A syntax error in a source file three test files require, next to a suite whose tests fail: the case.
  { runner: 'node', capture: 'spec-srcerror.txt', notLoaded: [/srcerror\/ledger-balance\.test\.js$/, /srcerror\/ledger-report\.test\.js$/, /srcerror\/ledger-totals\.test\.js$/], failing: 8, said: /SyntaxError/ },
  { runner: 'node', capture: 'tap-srcerror.txt', notLoaded: [/srcerror\/ledger-balance\.test\.js$/, /srcerror\/ledger-report\.test\.js$/, /srcerror\/ledger-totals\.test\.js$/], failing: 8, said: /SyntaxError/ },
  { runner: 'node', capture: 'spec-loaderror.txt', notLoaded: [/loaderror\/broken\.test\.js$/], failing: 0, said: /SyntaxError: missing \) after argument list/ },
  { runner: 'node', capture: 'tap-loaderror.txt', notLoaded: [/loaderror\/broken\.test\.js$/], failing: 0, said: /SyntaxError: missing \) after argument list/ },
  { runner: 'pytest', capture: 'q-srcerror.txt', notLoaded: [/^srcerror\/test_ledger_balance\.py$/, /^srcerror\/test_ledger_totals\.py$/], failing: 0, said: /SyntaxError: '\(' was never closed/ },
  { runner: 'pytest', capture: 'q-srcerror-continue.txt', notLoaded: [/^srcerror\/test_ledger_balance\.py$/, /^srcerror\/test_ledger_totals\.py$/], failing: 6, said: /SyntaxError/ },
  { runner: 'pytest', capture: 'rA-loaderror.txt', notLoaded: [/^broken\/test_broken\.py$/], failing: 0, said: /SyntaxError: invalid syntax/ },
  { runner: 'jest', capture: 'default-loaderror.txt', notLoaded: [/^loaderror\/missing\.test\.js$/, /^loaderror\/broken\.test\.js$/], failing: 0, said: /Cannot find module '\.\.\/src\/doesNotExist'/ },
  { runner: 'jest', capture: 'json-loaderror.txt', notLoaded: [/loaderror\/missing\.test\.js$/, /loaderror\/broken\.test\.js$/], failing: 0, said: /Cannot find module/ },
  { runner: 'jest', capture: 'junit-loaderror-suiteerrors.xml', notLoaded: [/^loaderror\/missing\.test\.js$/, /^loaderror\/broken\.test\.js$/], failing: 0, said: /Cannot find module/ },
  { runner: 'vitest', capture: 'default-loaderror.txt', notLoaded: [/^loaderror\/broken\.test\.ts$/, /^loaderror\/empty\.test\.ts$/, /^loaderror\/missing\.test\.ts$/], failing: 0, said: /Transform failed/ },
  { runner: 'vitest', capture: 'junit-loaderror.xml', notLoaded: [/^loaderror\/broken\.test\.ts$/, /^loaderror\/empty\.test\.ts$/, /^loaderror\/missing\.test\.ts$/], failing: 0, said: /Transform failed/ },
  // go builds a package's tests as one binary: the package is what did not load.
  { runner: 'go', capture: 'plain-loaderror.txt', notLoaded: [/^example\.com\/greenloop\/broken$/], failing: 0, said: /broken_test\.go:6:16: undefined: Double/ },
  { runner: 'go', capture: 'v-loaderror.txt', notLoaded: [/^example\.com\/greenloop\/broken$/], failing: 0, said: /undefined: Double/ },
  { runner: 'go', capture: 'json-loaderror.txt', notLoaded: [/^example\.com\/greenloop\/broken$/], failing: 0, said: /undefined: Double/ },
  // cargo compiles a crate's tests per target: the crate and target are what did not load.
  { runner: 'cargo', capture: 'loaderror.txt', notLoaded: [/^broken \(lib test\)$/], failing: 0, said: /mismatched types/ },
];

describe('test files that did not load, per runner (real captures)', () => {
  for (const c of CASES) {
    it(`${c.runner}/${c.capture}: ${c.notLoaded.length} file${c.notLoaded.length === 1 ? '' : 's'} that did not load, ${c.failing} failing test${c.failing === 1 ? '' : 's'}`, () => {
      const r = parse(c.runner, c.capture);
      assert.equal(r.loadError, true);
      const named = files(r);
      assert.equal(named.length, c.notLoaded.length, `named: ${JSON.stringify(named)}`);
      for (const re of c.notLoaded) assert.ok(named.some((f) => re.test(f)), `${re} not in ${JSON.stringify(named)}`);
      assert.equal(r.failing.length, c.failing, `failing: ${JSON.stringify(r.failing.map((f) => f.id))}`);
      for (const f of named) {
        assert.ok(!r.failing.some((t) => t.id === f), `${f} is listed as a failing test`);
        assert.ok(!(r.tests ?? []).some((t) => t.id === f), `${f} is listed as a test that ran`);
      }
      assert.match(r.loadErrors![0]!.message, c.said);
    });
  }

  it('node counts a file that did not load as a failing test; here it is counted apart', () => {
    const r = parse('node', 'spec-srcerror.txt');
    const mixed = parse('node', 'spec-mixed.txt');
    assert.equal(r.failedCount, mixed.failedCount);
    assert.equal(r.passedCount, mixed.passedCount);
  });

  it('a run where every file loads names none, even when tests fail', () => {
    for (const [runner, capture] of [['node', 'spec-mixed.txt'], ['jest', 'default-mixed.txt'], ['pytest', 'q-mixed.txt'], ['go', 'v-mixed.txt'], ['vitest', 'default-mixed.txt'], ['cargo', 'mixed.txt']]) {
      assert.deepEqual(files(parse(runner!, capture!)), [], `${runner}/${capture}`);
    }
  });

  it('mocha stops the whole run at the first file that throws while loading: a load error with no file named', () => {
    const r = parse('mocha', 'spec-loaderror.txt');
    assert.equal(r.loadError, true);
    assert.deepEqual(files(r), []);
  });
});
