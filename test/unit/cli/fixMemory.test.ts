// `greenloop fix` on a loud suite: 100 MB of test output per run (2,500 tests, each logging its share, and the calc
// tests run for real), through the real CLI with a scripted model on loopback. Memory is a count, not a clock: the
// peak resident set of the greenloop process itself, read at its exit. Before issue 22 each run's parse lifted the
// heap by the size of the output (386 MB here; 775 MB on 200 MB with a regression and its re-run).
// The 200 MB case, with a regression and its re-run, is a line of `npm run bench:bounds`.
import * as assert from 'assert';
import * as fs from 'fs';
import { tempDir, tempProject } from '../support/cli';
import { runCliMeasured } from '../support/peakRss';
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { answer, FIX_ADD, FIX_MUL } from '../../support/calcAnswers';

const LIMIT_MB = 200;

describe('greenloop fix on 100 MB of test output per run (real CLI, scripted model)', function () {
  this.timeout(300_000);

  it(`stays under ${LIMIT_MB} MB through the baseline, two attempts and the run that confirms green`, async () => {
    const server = await startFakeOpenAIServer([answer(FIX_ADD), answer(FIX_MUL)]);
    const project = tempProject('calc-loud');
    const stateDir = tempDir('state');
    try {
      const res = await runCliMeasured(
        ['fix', '--cwd', project, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream', '--tsc', 'off', '--state-dir', stateDir, '--json'],
        { env: { LOUD_MB: '100', LOUD_TESTS: '2500' } },
      );
      assert.strictEqual(res.code, 0, res.stderr);
      const report = JSON.parse(res.stdout);
      assert.deepStrictEqual(report.baseline.failing, ['calc > adds', 'calc > multiplies']);
      assert.deepStrictEqual(report.iterations.map((i: { verdict: string }) => i.verdict), ['progress', 'green']);
      assert.strictEqual(report.iterations[1].ran, 2503, 'every test of the loud suite was read');
      assert.ok(res.peakMb < LIMIT_MB, `greenloop fix peaked at ${res.peakMb} MB (limit ${LIMIT_MB} MB)`);
    } finally {
      await server.close();
      fs.rmSync(project, { recursive: true, force: true });
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
