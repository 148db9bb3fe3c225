// Missing-test detection stays exact at scale: a run of 100,000 distinct tests, one of which an attempt stops running
// (real CLI, an agent command that drops it). About a minute of CPU, so it runs in `npm run test:heavy`; every
// `npm test` keeps the flood and the 100 MB runs of cli/fixMemory.test.ts, and bench:bounds a million tests.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { tempDir, tempProject } from '../support/cli';
import { runCliMeasured } from '../support/peakRss';

const AGENT = path.join(__dirname, '..', 'support', 'dropOneTestAgent.js');

describe('greenloop fix: one missing test among 100,000 (issue 30) @heavy', function () {
  this.timeout(300_000);
  let project: string;
  let stateDir: string;
  beforeEach(() => {
    project = tempProject('many-tests');
    stateDir = tempDir('state');
  });
  afterEach(() => {
    fs.rmSync(project, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  it('names the one test of 100,000 that an attempt stopped running, and goes green when the next attempt keeps them all', async () => {
    const res = await runCliMeasured(
      ['fix', '--cwd', project, '--test-cmd', 'node tap.js', '--tsc', 'off', '--actor', 'command', '--actor-cmd', `node "${AGENT}"`, '--max-iterations', '3', '--state-dir', stateDir, '--json'],
      { env: { TESTS: '100000', UNTESTED: '77777' } },
    );
    assert.strictEqual(res.code, 0, res.stderr);
    const report = JSON.parse(res.stdout);
    assert.deepStrictEqual(report.baseline.failing, ['module 254 > parses record 4242']);
    const [first, second] = report.iterations;
    assert.strictEqual(first.verdict, 'regression');
    assert.deepStrictEqual(first.missing, ['module 11 > parses record 77777'], 'exactly the test that stopped running');
    assert.strictEqual(first.ran, 99_999);
    assert.strictEqual(second.verdict, 'green');
    assert.strictEqual(second.ran, 100_000);
  });
});
