// greenloop fix on java-semver with one bug and a scripted model, `mvn` replaying real captures of each state the loop
// reaches (support/mavenReplay.ts): the test edit refused, the fix judged first by the failing test alone with
// Surefire's -Dtest, then by the whole suite, green. fixMaven.test runs the same loop with real Maven (heavy).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { execFileSync } from 'child_process';
import { runCli, tempDir, tempProject } from '../support/cli';
import { mavenReplayByState } from '../support/mavenReplay';
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import type { FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { answer } from '../../support/calcAnswers';
import { BUGGY_LINE, FIX_VERSION, VERSION_JAVA, VERSION_TEST, WEAKEN_VERSION_TEST, withBug } from '../../support/javaAnswers';

describe('greenloop fix on a Maven project (replayed mvn)', function () {
  this.timeout(120_000);
  let server: FakeOpenAIServer;
  let project: string;
  let stateDir: string;
  let bin: string;

  beforeEach(async () => {
    server = await startFakeOpenAIServer([]);
    project = tempProject('java-semver');
    const file = path.join(project, VERSION_JAVA);
    fs.writeFileSync(file, withBug(fs.readFileSync(file, 'utf8')));
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qam', 'bug'], { cwd: project });
    stateDir = tempDir('state');
    bin = mavenReplayByState({
      file: path.join(project, VERSION_JAVA), bug: BUGGY_LINE,
      full: { bugged: 'semver-onebug', fixed: 'semver-green' },
      narrowed: { bugged: 'semver-onebug-narrowed', fixed: 'semver-green-narrowed' },
    });
  });
  afterEach(async () => {
    await server.close();
    for (const d of [project, stateDir, bin]) fs.rmSync(d, { recursive: true, force: true });
  });

  it('refuses the test edit, runs the failing test first with -Dtest, then the whole suite, and ends green', async () => {
    const testBefore = fs.readFileSync(path.join(project, VERSION_TEST));
    server.push(answer(WEAKEN_VERSION_TEST), answer(FIX_VERSION));
    const res = await runCli(['fix', '--cwd', project, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream',
      '--tsc', 'off', '--state-dir', stateDir, '--json'], { env: { PATH: `${bin}${path.delimiter}${process.env.PATH}` } });
    const report = JSON.parse(res.stdout);
    assert.strictEqual(report.outcome, 'green', res.stderr);
    assert.deepStrictEqual(report.baseline.failing, ['VersionTest > Ordering > comparesByPrecedence(String, String)[4]']);
    assert.match(res.stderr, /mvn -B test/);
    const [refused, fixed] = report.iterations;
    assert.strictEqual(refused.verdict, 'invalid-proposal');
    assert.match(refused.note, /protected/);
    assert.deepStrictEqual(fs.readFileSync(path.join(project, VERSION_TEST)), testBefore);
    assert.strictEqual(fixed.verdict, 'green');
    assert.deepStrictEqual(fixed.testRuns.map((r: { scope: string }) => r.scope).slice(0, 2), ['targeted', 'full']);
    assert.strictEqual(fixed.testRuns[0].command, "mvn -B test '-Dtest=VersionTest$Ordering#comparesByPrecedence' -Dsurefire.failIfNoSpecifiedTests=false");
    assert.strictEqual(fixed.testRuns[1].tests, 24, 'the whole suite');
  });
});
