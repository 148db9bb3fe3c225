// Issue 30: a mocha suite whose title ends in ":" (js-yaml 4.1.1's "Scalar style dump:") cut every failing test under
// it down to one ID. Real mocha 8 and 11 on test/fixtures/runners/mocha's test/titles, the real CLI: each failure keeps
// its whole title path, and where several reported tests do share an ID (two tests of one title; two titles that
// differ only in a duration, which the comparison normalizes) the witness says so in its warnings.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, runCli, tempDir } from '../support/cli';

const FAILING = [
  'Units > Scalar style dump: > Plain style > is preferred',
  'Units > Scalar style dump: > Single quote style > doubles a quote',
  'Units > Scalar style dump: > ends in a colon:',
  'Units > Timing > answers within <dur>',
  'Units > Twins > has a twin',
];

describe('mocha titles ending in ":", and tests sharing an ID, through verify (real mocha 8 and 11)', function () {
  this.timeout(300_000);
  let runnersCache = '';
  const made: string[] = [];

  before(() => {
    runnersCache = execFileSync('bash', [path.join(ROOT, 'test', 'fixtures', 'targeted', 'install-runners.sh'), 'mocha', 'mocha8'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').pop()!;
  });
  after(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const mocha of ['mocha8', 'mocha'] as const) {
    it(`${mocha === 'mocha8' ? 'mocha 8' : 'mocha 11'}: one ID per failing test, and a warning naming each ID several reports share`, async () => {
      const dir = tempDir(`${mocha}-titles`);
      made.push(dir);
      const fixture = path.join(ROOT, 'test', 'fixtures', 'runners', 'mocha');
      for (const part of ['src', 'test']) fs.cpSync(path.join(fixture, part), path.join(dir, part), { recursive: true });
      fs.symlinkSync(path.join(runnersCache, mocha, 'node_modules'), path.join(dir, 'node_modules'));
      const res = await runCli(['verify', '--cwd', dir, '--test-cmd', 'npx mocha test/titles', '--tsc', 'off'], { env: { CI: '1', NO_COLOR: '1' } });
      assert.strictEqual(res.code, 1, res.stderr);
      const w = JSON.parse(res.stdout);
      assert.deepStrictEqual(w.failing, FAILING);
      assert.strictEqual(w.failedCount, 7);
      assert.strictEqual(w.passedCount, 2);
      assert.strictEqual(w.warnings.length, 1, JSON.stringify(w.warnings));
      assert.match(w.warnings[0], /^The test output gives one ID to several reported tests: `Units > Timing > answers within <dur>` \(2 reports\), `Units > Twins > has a twin` \(2 reports\)\. /);
      assert.match(res.stderr, /greenloop: warning: The test output gives one ID to several reported tests/);
    });
  }
});
