// A run that cannot start still answers a caller that reads JSON (issue 30, item 9): an unknown flag, a flag without
// its value and a bad value each end in one line on stderr and, for `fix --json`/`--report FILE`, a report of outcome
// `error` whose reasonText is that line — with --json before the bad flag or after it; `verify` and `hook claude-stop`
// always print JSON, so they print their error object. Real CLI.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { runCli, tempDir } from '../support/cli';
import type { CliResult } from '../support/cli';

/** The one stderr line, without its "greenloop: " prefix. */
function sentenceOf(res: CliResult): string {
  const lines = res.stderr.trim().split('\n');
  assert.strictEqual(lines.length, 1, `one line on stderr, got:\n${res.stderr}`);
  assert.match(lines[0], /^greenloop: /);
  return lines[0].slice('greenloop: '.length);
}

describe('a run that cannot start answers --json and --report (real CLI)', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = tempDir('usage-answers');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const model = ['--base-url', 'http://127.0.0.1:9/v1', '--model', 'm'];
  const cases: Array<{ what: string; args: string[]; says: RegExp }> = [
    { what: 'an unknown flag', args: ['--bogus'], says: /^Unknown option '--bogus'/ },
    // Last, or followed by --json (which parseArgs will not take for its value).
    { what: 'a flag without its value', args: ['--max-iterations'], says: /^Option '--max-iterations(?: <value>)?' argument (?:missing|is ambiguous)/ },
    { what: 'a flag whose value is the next flag', args: ['--max-iterations', '--patience', '2'], says: /argument is ambiguous/ },
    { what: 'a bad value', args: ['--max-iterations', 'many'], says: /^--max-iterations must be a whole number of at least 1 \(got "many"\)\.$/ },
    { what: 'a bad --format', args: ['--format', 'html'], says: /^--format must be text or github \(got "html"\)\.$/ },
  ];

  for (const { what, args, says } of cases) {
    it(`fix: ${what}, with --json before it and after it, and --report FILE`, async () => {
      for (const [order, argv] of [['before', ['--json', ...args]], ['after', [...args, '--json']]] as const) {
        const res = await runCli(['fix', '--cwd', dir, ...model, ...argv]);
        assert.strictEqual(res.code, 2, `${order}: ${res.stderr}`);
        const sentence = sentenceOf(res);
        assert.match(sentence, says);
        const report = JSON.parse(res.stdout);
        assert.deepStrictEqual({ outcome: report.outcome, reasonText: report.reasonText, baseline: report.baseline, final: report.final }, { outcome: 'error', reasonText: sentence, baseline: null, final: null }, order);
      }
      const file = path.join(dir, 'report.json');
      fs.rmSync(file, { force: true });
      const res = await runCli(['fix', '--cwd', dir, ...model, '--report', file, ...args]);
      assert.strictEqual(res.code, 2);
      assert.strictEqual(res.stdout, '', 'without --json stdout stays empty');
      assert.strictEqual(JSON.parse(fs.readFileSync(file, 'utf8')).reasonText, sentenceOf(res));
    });
  }

  it('fix: a --report without its file is one line, and --json still gets the report', async () => {
    const res = await runCli(['fix', '--cwd', dir, ...model, '--json', '--report']);
    assert.strictEqual(res.code, 2);
    const sentence = sentenceOf(res);
    assert.match(sentence, /^Option '--report <value>' argument missing/);
    assert.strictEqual(JSON.parse(res.stdout).reasonText, sentence);
    // `--report --json`: the flag after --report is not its file; nothing is written under that name.
    const swallowed = await runCli(['fix', '--cwd', dir, ...model, '--report', '--json'], { cwd: dir });
    assert.strictEqual(swallowed.code, 2);
    assert.strictEqual(JSON.parse(swallowed.stdout).reasonText, sentenceOf(swallowed));
    assert.ok(!fs.existsSync(path.join(dir, '--json')));
    // A --report file that cannot be written: --json still gets the report.
    const unwritable = await runCli(['fix', '--cwd', dir, ...model, '--report', path.join(dir, 'no', 'such', 'folder', 'r.json'), '--json', '--bogus']);
    assert.strictEqual(unwritable.code, 2);
    assert.strictEqual(JSON.parse(unwritable.stdout).reasonText, sentenceOf(unwritable));
  });

  it('verify prints {green: false, outcome: "error", reasonText} for every way it cannot start', async () => {
    for (const args of [['--frobnicate'], ['--tsc'], ['--tsc', 'sometimes'], ['--timeout-s', 'soon'], ['--cwd', path.join(dir, 'missing')]]) {
      const res = await runCli(['verify', '--cwd', dir, '--test-cmd', 'true', ...args]);
      assert.strictEqual(res.code, 2, `${args.join(' ')}: ${res.stderr}`);
      assert.deepStrictEqual(JSON.parse(res.stdout), { green: false, outcome: 'error', reasonText: sentenceOf(res) });
    }
  });

  it('hook claude-stop answers a bad flag in JSON too, and still exits 1 (exit 2 would block the agent)', async () => {
    for (const args of [['--bogus'], ['--max-iterations'], ['--max-iterations', 'many']]) {
      const res = await runCli(['hook', 'claude-stop', '--state-dir', dir, ...args], { input: '{}' });
      assert.strictEqual(res.code, 1, `${args.join(' ')}: ${res.stderr}`);
      const sentence = sentenceOf(res);
      assert.deepStrictEqual(JSON.parse(res.stdout), { outcome: 'error', reasonText: sentence, systemMessage: `Greenloop: ${sentence}` });
    }
  });

  it('--pass-env takes a name, never repeats a pasted value, and never hands on the model key', async () => {
    const pasted = 'ghp_PLANTED-pasted-token-value';
    const res = await runCli(['verify', '--cwd', dir, '--test-cmd', 'true', '--pass-env', pasted]);
    assert.strictEqual(res.code, 2);
    assert.strictEqual(sentenceOf(res), '--pass-env takes the NAME of an environment variable (letters, digits and _), not its value.');
    assert.ok(!res.stdout.includes(pasted) && !res.stderr.includes(pasted));
    const key = await runCli(['fix', '--cwd', dir, ...model, '--api-key-env', 'MY_MODEL_KEY', '--pass-env', 'MY_MODEL_KEY', '--json'], { env: { MY_MODEL_KEY: 'sk-PLANTED-model-key-123' } });
    assert.strictEqual(key.code, 2);
    assert.match(sentenceOf(key), /^--pass-env MY_MODEL_KEY names a variable that holds the model key/);
    assert.strictEqual(JSON.parse(key.stdout).outcome, 'error');
  });
});
