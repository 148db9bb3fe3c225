// `greenloop fix` on a PHPUnit project (test/fixtures/projects/php-money with two bugs, php-states.json), no
// --test-cmd (phpunit.xml.dist suggests `phpunit`), a scripted model: a weakened test is refused, each bug's fix is
// judged first by the failing tests alone (an anchored --filter), then by the whole suite: progress, then green.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, runCli, tempDir } from '../support/cli';
import { needToolchain } from '../support/toolchains';
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import type { FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { answer } from '../../support/calcAnswers';

const PROJECTS = path.join(ROOT, 'test', 'fixtures', 'projects');
type Replacement = { file: string; search: string; replace: string };
const TWO_BUGS = (JSON.parse(fs.readFileSync(path.join(PROJECTS, 'php-states.json'), 'utf8')) as Record<string, Record<string, Replacement[]>>)['php-money']['two-bugs'];
const FORMAT = 'Acme\\Money\\Tests\\Unit\\MoneyTest > testFormat > data set "negative amount"';
const CONVERT = 'Acme\\Money\\Tests\\Unit\\Exchange\\RatesTest > testConvert > data set "USD back to EUR"';

function phpEdit(file: string, search: string, replace: string, prose: string): string {
  return `${prose}\n\n${file}\n\`\`\`php\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n\`\`\`\n`;
}

describe('greenloop fix on a PHPUnit project (real phpunit, scripted model)', function () {
  this.timeout(300_000);
  let server: FakeOpenAIServer;
  let dir = '';
  let state = '';
  before(() => needToolchain('php', 'phpunit'));
  beforeEach(async () => {
    server = await startFakeOpenAIServer([]);
    dir = tempDir('fix-php-money');
    state = tempDir('fix-php-money-state');
    fs.cpSync(path.join(PROJECTS, 'php-money'), dir, { recursive: true });
    for (const r of TWO_BUGS) {
      const file = path.join(dir, r.file);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(r.search, () => r.replace));
    }
    const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'fixture');
  });
  afterEach(async () => {
    await server.close();
    for (const d of [dir, state]) fs.rmSync(d, { recursive: true, force: true });
  });

  it('a test edit refused; each fix judged by the failing tests first (--filter), then the whole suite: progress, then green', async () => {
    const testFile = path.join(dir, 'tests', 'Unit', 'MoneyTest.php');
    const before = fs.readFileSync(testFile, 'utf8');
    server.push(
      answer(phpEdit('tests/Unit/MoneyTest.php', "        yield 'negative amount' => [-1999, 'USD', '-19.99 USD'];", "        yield 'negative amount' => [-1999, 'USD', '19.99 USD'];", 'The expectation looks wrong.')),
      answer(phpEdit('src/Money.php', "        $sign = '';", "        $sign = $this->minor < 0 ? '-' : '';", 'format() drops the sign of a negative amount.')),
      answer(phpEdit('src/Exchange/Rates.php', '        $this->rates["$to/$from"] = $rate;', '        $this->rates["$to/$from"] = 1 / $rate;', 'The reverse rate must be the inverse.')),
    );
    const res = await runCli(['fix', '--cwd', dir, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream', '--tsc', 'off', '--state-dir', state, '--json'], { timeoutMs: 280_000 });
    const report = JSON.parse(res.stdout);
    assert.strictEqual(report.outcome, 'green', res.stderr);
    assert.deepStrictEqual(report.baseline.failing, [CONVERT, FORMAT]);
    assert.deepStrictEqual(report.iterations.map((i: any) => i.verdict), ['invalid-proposal', 'progress', 'green']);
    assert.match(report.iterations[0].note, /protected/);
    assert.strictEqual(fs.readFileSync(testFile, 'utf8'), before, 'the test file is untouched');

    const [, progress, green] = report.iterations;
    assert.deepStrictEqual(progress.failing, [CONVERT]);
    for (const it of [progress, green]) {
      assert.strictEqual(it.testRuns[0].scope, 'targeted', 'the failing tests first');
      assert.match(it.testRuns[0].command, /^phpunit --filter '\/\^\(\?:.*testConvert with data set "USD back to EUR".*\)\$\/'$/);
      assert.ok(it.testRuns.some((r: any) => r.scope === 'full'), 'then the whole suite');
    }
    assert.match(progress.testRuns[0].command, /testFormat with data set "negative amount"/, 'both failing tests in the first narrowed run');
    const full = progress.testRuns.find((r: any) => r.scope === 'full');
    assert.strictEqual(full.tests, 22);
    assert.strictEqual(progress.testRuns[0].tests, 2);
  });
});
