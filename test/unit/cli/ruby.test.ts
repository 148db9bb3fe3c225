// Ruby through the real CLI (Debian's ruby-rspec, ruby-minitest, rake): `greenloop verify` with no test command on
// the projects test/fixtures/projects/ruby-inflect (RSpec) and ruby-ledger (minitest through `rake test`) in each state
// of ruby-states.json gives exactly the failing IDs the runner's own API gives (test/fixtures/regenerate/ruby/: RSpec's
// example metadata, minitest's results, never Greenloop); and `greenloop fix` with a scripted model refuses an edit to
// a spec, makes progress then goes green, each attempt running the failing tests first with the runner's own selection.
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

function project(name: string, state: string, made: string[]): string {
  const dir = tempDir(`${name}-${state}`);
  made.push(dir);
  fs.cpSync(path.join(FIXTURES, 'projects', name), dir, { recursive: true });
  execFileSync('ruby', [path.join(TRUTH, 'apply_state.rb'), STATES, name, state, dir]);
  return dir;
}

/** What the runner itself says failed, by its own API (the same commands as regenerate/ruby.sh). */
function groundTruth(name: string, dir: string): { failing: string[]; loadError: boolean } {
  const out = path.join(dir, '..', `${path.basename(dir)}.truth.json`);
  fs.rmSync(out, { force: true });
  if (name === 'ruby-inflect') spawnSync('rspec', ['--require', path.join(TRUTH, 'rspec_truth.rb'), '--format', 'RspecTruth', '--out', out], { cwd: dir, env: { ...process.env, ...ENV } });
  else spawnSync('rake', ['test'], { cwd: dir, env: { ...process.env, ...ENV, MINITEST_TRUTH: out, RUBYOPT: `-r${path.join(TRUTH, 'minitest_truth.rb')}` } });
  if (!fs.existsSync(out)) return { failing: [], loadError: true };
  const t = JSON.parse(fs.readFileSync(out, 'utf8'));
  fs.rmSync(out);
  return { failing: t.failing, loadError: t.loadError };
}

describe('Ruby: verify and fix through the real CLI (RSpec, minitest)', function () {
  this.timeout(240_000);
  const made: string[] = [];
  before(() => {
    needToolchain('ruby-rspec', 'ruby-minitest', 'rake', 'ruby-rspec-junit-formatter');
    ensureCliBuilt();
  });
  after(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const name of ['ruby-inflect', 'ruby-ledger']) {
    // Every state of both projects costs about 35 s: `npm run test:heavy`; npm test reads the same states' captures against
    // the same ground truth (parsers/ruby.test.ts).
    it(`${name}: verify without a test command gives the runner's own failing IDs in every state @heavy`, async () => {
      for (const state of ['green', 'one', 'two', 'compile']) {
        const dir = project(name, state, made);
        const truth = groundTruth(name, dir);
        const res = await runCli(['verify', '--cwd', dir, '--tsc', 'off'], { env: ENV });
        const w = JSON.parse(res.stdout);
        assert.deepStrictEqual(w.failing, truth.failing, `${state}: ${res.stderr}`);
        assert.strictEqual(w.loadError, truth.loadError, state);
        assert.strictEqual(w.green, state === 'green', state);
        if (state === 'one') assert.strictEqual(w.failing.length, 1);
        if (state === 'two') assert.strictEqual(w.failing.length, 2);
        if (name === 'ruby-inflect' && state !== 'compile') {
          // The same run's JUnit XML (rspec_junit_formatter), read with --junit: the same IDs.
          const junit = await runCli(['verify', '--cwd', dir, '--tsc', 'off', '--test-cmd', 'rspec --format progress --format RspecJunitFormatter --out rspec.xml', '--junit', 'rspec.xml'], { env: ENV });
          assert.deepStrictEqual(JSON.parse(junit.stdout).failing, truth.failing, `${state} --junit: ${junit.stderr}`);
        }
        if (state === 'compile') {
          const where = name === 'ruby-inflect' ? 'lib/inflect/words.rb' : 'lib/ledger/money.rb';
          assert.ok(w.loadErrorFiles.some((f: string) => f.startsWith(where)), `${state}: ${JSON.stringify(w.loadErrorFiles)}`);
        }
      }
    });
  }

  const FIXES = [
    {
      name: 'ruby-inflect', spec: 'spec/inflect/words_spec.rb', specFrom: "      expect(%w[bus box church].map { |w| words.pluralize(w) }).to eq(%w[buses boxes churches])", specTo: "      expect(%w[bus box church].map { |w| words.pluralize(w) }).to eq(%w[buses boxes churchs])",
      first: edit('lib/inflect/words.rb', "      return \"#{word}es\" if word.end_with?('s', 'x')", "      return \"#{word}es\" if word.end_with?('s', 'x', 'ch', 'sh')", 'Sibilants take es.'),
      second: edit('lib/inflect/numbers.rb', "      return 'th' if (11..12).cover?(n % 100)", "      return 'th' if (11..13).cover?(n % 100)", 'The teens run to 13.'),
      targeted: /^rspec --format json -e /,
    },
    {
      name: 'ruby-ledger', spec: 'test/ledger/money_test.rb', specFrom: "      assert_equal(-50, Money.parse('-0.5').cents)", specTo: "      assert_equal(50, Money.parse('-0.5').cents)",
      first: edit('lib/ledger/book.rb', "      raise ArgumentError, 'amount must be positive' if amount.cents.negative?", "      raise ArgumentError, 'amount must be positive' unless amount.cents.positive?", 'Zero is not a transfer.'),
      second: edit('lib/ledger/money.rb', '      sign = 1', "      sign = text.start_with?('-') ? -1 : 1", 'Parse the sign.'),
      targeted: /^rake test .*TESTOPTS=.*--name=/,
    },
  ];
  for (const f of FIXES) {
    // RSpec's stays in every npm test (about 10 s); minitest's, the same rules through rake, in test:heavy.
    it(`${f.name}: fix refuses a test edit, makes progress, then goes green, the failing tests first each time${f.name === 'ruby-ledger' ? ' @heavy' : ''}`, async () => {
      const dir = project(f.name, 'two', made);
      const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'pipe' });
      git('init', '-q');
      git('add', '-A');
      git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'fixture');
      const server = await startFakeOpenAIServer([
        answer(edit(f.spec, f.specFrom, f.specTo, 'The expectation looks wrong.')),
        answer(f.first),
        answer(f.second),
      ]);
      const state = tempDir('ruby-fix-state');
      made.push(state);
      try {
        const res = await runCli(['fix', '--cwd', dir, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream',
          '--tsc', 'off', '--patience', '3', '--state-dir', state, '--json'], { env: ENV, timeoutMs: 200_000 });
        const report = JSON.parse(res.stdout);
        assert.strictEqual(report.outcome, 'green', res.stderr);
        assert.strictEqual(report.baseline.failing.length, 2);
        assert.deepStrictEqual(report.iterations.map((i: any) => i.verdict), ['invalid-proposal', 'progress', 'green']);
        assert.match(report.iterations[0].note, /protected/);
        for (const it of report.iterations.slice(1)) {
          assert.strictEqual(it.testRuns[0].scope, 'targeted', JSON.stringify(it.testRuns));
          assert.match(it.testRuns[0].command, f.targeted);
          assert.ok(it.testRuns.some((r: any) => r.scope === 'full'), 'the whole suite ran after a targeted test passed');
        }
        assert.strictEqual(report.iterations[1].testRuns[0].tests, 2, 'the targeted run ran the two failing tests');
      } finally {
        await server.close();
      }
    });
  }
});
