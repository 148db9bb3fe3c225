// The promise tests' shared tools (test/unit/cli/fixPromise*.test.ts): a test command that counts its runs, a flaky test.
import * as fs from 'fs';
import * as path from 'path';
import type { FixHarness } from './fixHarness';

export const TEST_FILE = 'test/calc.test.js';

/** A counter outside the workspace that the test command bumps on every run: how often the tests really ran. */
export function countingTestCommand(h: FixHarness, extra = ''): { cmd: string; runs: () => number } {
  const counter = path.join(h.stateDir, 'runs.count');
  return {
    cmd: `echo run >> "${counter}"; node --test test/; s=$?; ${extra} exit $s`,
    runs: () => (fs.existsSync(counter) ? fs.readFileSync(counter, 'utf8').trim().split('\n').length : 0),
  };
}

/** Adds `calc > is flaky`, which fails on the runs where `passes` (over the run number n) is false. */
export function addFlakyTest(h: FixHarness, passes: string): void {
  const counter = JSON.stringify(path.join(h.stateDir, 'flaky.count'));
  const flakyTest = [
    `  it('is flaky', () => {`,
    // A covered run (V8 coverage, for the context) is not one of the runs the verdicts count: it does not count here.
    `    if (process.env.NODE_V8_COVERAGE) return;`,
    `    const fs = require('node:fs');`,
    `    const n = (fs.existsSync(${counter}) ? Number(fs.readFileSync(${counter}, 'utf8')) : 0) + 1;`,
    `    fs.writeFileSync(${counter}, String(n));`,
    `    assert.ok(${passes}, 'flaked on run ' + n);`,
    '  });',
  ].join('\n');
  h.write(TEST_FILE, h.read(TEST_FILE).replace('});\n', `${flakyTest}\n});\n`));
}
