// Runners that stop before every test ran say so in their output; the parsers read it (captures from real runs of
// --bail, -x, cargo without --no-fail-fast and a Go panic, made by test/fixtures/regenerate/*.sh).
import { strict as assert } from 'assert';
import { parseOutput } from '../../../src/runners/parseOutput';
import { readCaptureRaw } from './support';

const parse = (runner: string, name: string) => parseOutput(readCaptureRaw(runner, name));

describe('runs that stopped before every test ran', () => {
  const stopped: Array<[string, string, RegExp]> = [
    ['cargo', 'failfast.txt', /first test binary with a failure.*`cargo test --no-fail-fast` shows every failure/],
    ['pytest', 'x-mixed.txt', /pytest stopped after the first 1 failure \(-x or --maxfail\)/],
    ['jest', 'bail-mixed.txt', /jest stopped after a failing test file \(--bail\): 1 of 3 test files ran/],
    ['vitest', 'bail-mixed.txt', /vitest stopped early \(--bail\): 2 of 5 tests ran/],
    ['go', 'v-halted.txt', /a test panicked, which ends its package's test binary/],
    ['go', 'plain-halted.txt', /a test panicked/],
  ];
  for (const [runner, name, sentence] of stopped) {
    it(`${runner}/${name}: says it stopped early, and which flag shows every failure`, () => {
      assert.match(parse(runner, name).stoppedEarly ?? '', sentence);
    });
  }

  const complete: Array<[string, string]> = [
    ['cargo', 'mixed.txt'], ['pytest', 'q-mixed.txt'], ['jest', 'default-mixed.txt'], ['vitest', 'default-mixed.txt'], ['go', 'v-allpass.txt'],
  ];
  for (const [runner, name] of complete) {
    it(`${runner}/${name}: a complete run is not called stopped early`, () => assert.equal(parse(runner, name).stoppedEarly, undefined));
  }

  it('go: the test after a panic is not listed as run, so it can later appear without blame', () => {
    const r = parse('go', 'v-halted.txt');
    assert.deepEqual((r.tests ?? []).map((t) => t.id).sort(), ['TestFirst', 'TestPanics']);
  });

  it('mocha --bail lists only the tests it reached (no message needed: the names say it)', () => {
    const bail = parse('mocha', 'spec-bail.txt');
    const full = parse('mocha', 'spec-mixed.txt');
    assert.ok((bail.tests ?? []).length < (full.tests ?? []).length);
    assert.deepEqual(bail.failing.map((f) => f.id), ['Calculator > add > handles negatives']);
  });

  it('jest: a coverage threshold that fails a run where every test passed has no failing test and no load error', () => {
    const r = parse('jest', 'coverage-allpass.txt');
    assert.deepEqual(r.failing, []);
    assert.equal(r.loadError, false);
    assert.equal(r.failedCount, 0);
  });
});
