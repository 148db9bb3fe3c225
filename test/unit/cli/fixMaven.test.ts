// greenloop fix on a real Maven project (java-semver with one bug), real `mvn` offline against Debian's repository and
// a scripted model: an edit to the test class is refused, the fix is judged first by the failing test alone (Surefire's
// -Dtest on the nested class's parameterized method), then by the whole suite, and the run ends green. Heavy (.mocharc.js
// HEAVY_SUITES): each Maven run starts a JVM, four runs here; fixMavenReplay.test keeps the same loop in npm test.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { runCli, tempDir, tempProject } from '../support/cli';
import { needToolchain } from '../support/toolchains';
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import type { FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { answer } from '../../support/calcAnswers';
import { FIX_VERSION, VERSION_JAVA, VERSION_TEST, WEAKEN_VERSION_TEST, withBug } from '../../support/javaAnswers';
import { execFileSync } from 'child_process';

export const FAILING = 'VersionTest > Ordering > comparesByPrecedence(String, String)[4]';

describe('greenloop fix on a Maven project, real mvn', function () {
  this.timeout(900_000);
  let server: FakeOpenAIServer;
  let project: string;
  let stateDir: string;

  before(() => needToolchain('maven'));
  beforeEach(async () => {
    server = await startFakeOpenAIServer([]);
    project = tempProject('java-semver');
    const file = path.join(project, VERSION_JAVA);
    fs.writeFileSync(file, withBug(fs.readFileSync(file, 'utf8')));
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qam', 'bug'], { cwd: project });
    stateDir = tempDir('state');
  });
  afterEach(async () => {
    await server.close();
    fs.rmSync(project, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  it('refuses the test edit, runs the failing test first with -Dtest, then the whole suite, and ends green', async () => {
    const testBefore = fs.readFileSync(path.join(project, VERSION_TEST));
    server.push(answer(WEAKEN_VERSION_TEST), answer(FIX_VERSION));
    const res = await runCli(['fix', '--cwd', project, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream',
      '--tsc', 'off', '--state-dir', stateDir, '--json', '--verify-timeout-s', '600'], { timeoutMs: 850_000 });
    const report = JSON.parse(res.stdout);
    assert.strictEqual(report.outcome, 'green', res.stderr);
    assert.deepStrictEqual(report.baseline.failing, [FAILING]);
    const [refused, fixed] = report.iterations;
    assert.strictEqual(refused.verdict, 'invalid-proposal');
    assert.match(refused.note, /protected/);
    assert.deepStrictEqual(fs.readFileSync(path.join(project, VERSION_TEST)), testBefore);
    assert.strictEqual(fixed.verdict, 'green');
    const scopes = fixed.testRuns.map((r: { scope: string }) => r.scope);
    assert.deepStrictEqual(scopes.slice(0, 2), ['targeted', 'full']);
    assert.match(fixed.testRuns[0].command, /^mvn -B test '-Dtest=VersionTest\$Ordering#comparesByPrecedence' -Dsurefire\.failIfNoSpecifiedTests=false$/);
  });
});
