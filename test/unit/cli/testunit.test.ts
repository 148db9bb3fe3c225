// test-unit through the real CLI (the test-unit gem Debian's Ruby 3.1 bundles): `greenloop verify` with ruby/matrix's
// own command (a `-e` that requires every test file, test-unit's options after `--`) on test/fixtures/projects/ruby-units
// in each state of ruby-states.json gives exactly the failing IDs test-unit's own TestResult gives
// (regenerate/ruby/testunit_truth.rb, never Greenloop); and `greenloop fix` with a scripted model in a temp git repo
// makes progress then goes green, each attempt running the failing tests first with `--testcase`/`--name` and the XML report.
import * as assert from 'assert';
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, ensureCliBuilt, runCli, tempDir } from '../support/cli';
import { needToolchain } from '../support/toolchains';
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { answer, edit } from '../../support/calcAnswers';

const FIXTURES = path.join(ROOT, 'test', 'fixtures');
const STATES = path.join(FIXTURES, 'projects', 'ruby-states.json');
const TRUTH = path.join(FIXTURES, 'regenerate', 'ruby');
const ENV = { NO_COLOR: '1', TERM: 'dumb' };
const COMMAND: string = JSON.parse(fs.readFileSync(STATES, 'utf8'))['ruby-units'].command;

function project(state: string, made: string[]): string {
  const dir = tempDir(`ruby-units-${state}`);
  made.push(dir);
  fs.cpSync(path.join(FIXTURES, 'projects', 'ruby-units'), dir, { recursive: true });
  execFileSync('ruby', [path.join(TRUTH, 'apply_state.rb'), STATES, 'ruby-units', state, dir]);
  return dir;
}

/** What test-unit itself says failed (the same command as regenerate/testunit.sh). */
function groundTruth(dir: string): { failing: string[]; loadError: boolean } {
  const out = path.join(dir, '..', `${path.basename(dir)}.truth.json`);
  fs.rmSync(out, { force: true });
  spawnSync('sh', ['-c', COMMAND], { cwd: dir, env: { ...process.env, ...ENV, TESTUNIT_TRUTH: out, RUBYOPT: `-r${path.join(TRUTH, 'testunit_truth.rb')}` } });
  if (!fs.existsSync(out)) return { failing: [], loadError: true };
  const t = JSON.parse(fs.readFileSync(out, 'utf8'));
  fs.rmSync(out);
  return { failing: t.failing, loadError: t.loadError };
}

describe('test-unit: verify and fix through the real CLI, with ruby/matrix\'s command', function () {
  this.timeout(240_000);
  const made: string[] = [];
  before(() => {
    needToolchain('ruby-test-unit');
    ensureCliBuilt();
  });
  after(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('verify gives the failing IDs test-unit gives in every state, a syntax error as a load error of its file', async () => {
    for (const state of ['green', 'two', 'compile']) {
      const dir = project(state, made);
      const truth = groundTruth(dir);
      const res = await runCli(['verify', '--cwd', dir, '--tsc', 'off', '--test-cmd', COMMAND], { env: ENV });
      const w = JSON.parse(res.stdout);
      assert.deepStrictEqual(w.failing, truth.failing, `${state}: ${res.stderr}`);
      assert.strictEqual(w.loadError, truth.loadError, state);
      assert.strictEqual(w.green, state === 'green', state);
      if (state === 'two') {
        assert.deepStrictEqual(w.failing, ['TestLength > test_converts_centimeters_to_meters', 'TestLength > test_converts_meters_to_kilometers', 'TestTemperature::Parse > test_reads_celsius']);
      }
      if (state === 'compile') assert.ok(w.loadErrorFiles.some((f: string) => f.startsWith('lib/units/length.rb')), JSON.stringify(w.loadErrorFiles));
    }
  });

  it('fix makes progress then goes green, the failing tests first each time (--testcase, --name, --runner=xml)', async () => {
    const dir = project('two', made);
    const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'fixture');
    const server = await startFakeOpenAIServer([
      answer(edit('lib/units/temperature.rb', '      new(Float(text))', "      new(Float(text.strip.chomp('C')))", 'Drop the unit before parsing.')),
      answer(edit('lib/units/length.rb', '      meters / FACTORS.fetch(unit) / 10', '      meters / FACTORS.fetch(unit).to_f', 'Divide by the factor alone.')),
    ]);
    const state = tempDir('testunit-fix-state');
    made.push(state);
    try {
      const res = await runCli(['fix', '--cwd', dir, '--test-cmd', COMMAND, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream',
        '--tsc', 'off', '--patience', '3', '--state-dir', state, '--json'], { env: ENV, timeoutMs: 200_000 });
      const report = JSON.parse(res.stdout);
      assert.strictEqual(report.outcome, 'green', res.stderr);
      assert.deepStrictEqual(report.baseline.failing, ['TestLength > test_converts_centimeters_to_meters', 'TestLength > test_converts_meters_to_kilometers', 'TestTemperature::Parse > test_reads_celsius']);
      assert.deepStrictEqual(report.iterations.map((i: any) => i.verdict), ['progress', 'green']);
      assert.deepStrictEqual(report.iterations[0].failing, ['TestLength > test_converts_centimeters_to_meters', 'TestLength > test_converts_meters_to_kilometers']);
      for (const it of report.iterations) {
        assert.strictEqual(it.testRuns[0].scope, 'targeted', JSON.stringify(it.testRuns));
        assert.match(it.testRuns[0].command, / -- --ignore-name=test_ractor --runner=xml '--testcase=\/\\A\(\?:TestLength[|)]/);
        assert.ok(it.testRuns.some((r: any) => r.scope === 'full'), 'the whole suite ran after a targeted test passed');
      }
      assert.strictEqual(report.iterations[0].testRuns[0].tests, 3, 'the targeted run ran the three failing tests');
      assert.match(report.iterations[0].testRuns[0].command, /'--testcase=\/\\A\(\?:TestLength\|TestTemperature::Parse\)\\z\/' '--name=/);
    } finally {
      await server.close();
    }
  });
});
