// Issue 30: mocha 8 (and 9) report a source file that does not load with Node's bare stack trace, where mocha 10+ says
// "Exception during run:". The command names mocha (`npx mocha`, or `npm test` whose script runs it), so the output is
// read as mocha's and the suite is a load error the loop fixes — not an output "Greenloop cannot read" that stops the
// run before any model call. Real mocha 8 and 11 (install-runners.sh), the real CLI, a scripted model on loopback.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, runCli, tempDir } from '../support/cli';
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import type { FakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { answer, edit } from '../../support/calcAnswers';

const BROKEN = '  return values.reduce((total, v) => total - v, 0;';
const FIX_SYNTAX = edit('src/tally.js', BROKEN, '  return values.reduce((total, v) => total - v, 0);', 'The call to reduce is missing its closing parenthesis.');
const FIX_SUM = edit('src/tally.js', '  return values.reduce((total, v) => total - v, 0);', '  return values.reduce((total, v) => total + v, 0);', 'sum() subtracts; it should add.');

describe('a source file that does not load under mocha 8 and 11, through the CLI (real mocha, scripted model)', function () {
  this.timeout(300_000);
  let runnersCache = '';
  let server: FakeOpenAIServer;
  const made: string[] = [];

  before(() => {
    runnersCache = execFileSync('bash', [path.join(ROOT, 'test', 'fixtures', 'targeted', 'install-runners.sh'), 'mocha', 'mocha8'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').pop()!;
  });
  beforeEach(async () => {
    server = await startFakeOpenAIServer([]);
  });
  afterEach(async () => {
    await server.close();
  });
  after(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** test/fixtures/projects/mocha-tally with node_modules linked to the cached mocha, as a git repository. */
  function project(mocha: 'mocha' | 'mocha8'): string {
    const dir = tempDir(`${mocha}-tally`);
    made.push(dir);
    fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'projects', 'mocha-tally'), dir, { recursive: true });
    fs.symlinkSync(path.join(runnersCache, mocha, 'node_modules'), path.join(dir, 'node_modules'));
    const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'fixture');
    return dir;
  }

  const env = { CI: '1', NO_COLOR: '1' };
  for (const mocha of ['mocha8', 'mocha'] as const) {
    const version = mocha === 'mocha8' ? 'mocha 8' : 'mocha 11';

    it(`${version}: verify reads the stack trace as mocha's load error, for \`npx mocha\` and for \`npm test\` running mocha`, async () => {
      const dir = project(mocha);
      const output = execFileSync('bash', ['-c', 'npx mocha 2>&1 || true'], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env } });
      assert.match(output, /SyntaxError: missing \) after argument list/);
      if (mocha === 'mocha8') assert.doesNotMatch(output, /Exception during run/, 'mocha 8 prints the bare stack trace');
      for (const args of [['--test-cmd', 'npx mocha'], []]) {
        const res = await runCli(['verify', '--cwd', dir, '--tsc', 'off', ...args], { env });
        assert.strictEqual(res.code, 1, res.stderr);
        const w = JSON.parse(res.stdout);
        assert.strictEqual(w.runner, 'mocha', `${args.join(' ') || 'npm test'}: ${res.stderr}`);
        assert.strictEqual(w.loadError, true);
        assert.strictEqual(w.green, false);
        assert.deepStrictEqual(w.failing, []);
        assert.deepStrictEqual(w.warnings, [], 'not "an output Greenloop cannot read"');
      }
    });

    it(`${version}: fix makes the file load (progress), then fixes the test it then sees fail (green)${mocha === 'mocha8' ? ' @heavy' : ''}`, async () => {
      const dir = project(mocha);
      const state = tempDir('mocha-tally-state');
      made.push(state);
      server.push(answer(FIX_SYNTAX), answer(FIX_SUM));
      const res = await runCli(['fix', '--cwd', dir, '--test-cmd', 'npx mocha', '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream', '--tsc', 'off', '--state-dir', state, '--json'], { env });
      assert.strictEqual(res.code, 0, res.stderr);
      const report = JSON.parse(res.stdout);
      assert.strictEqual(report.outcome, 'green');
      assert.deepStrictEqual(report.baseline.failing, []);
      assert.deepStrictEqual(report.iterations.map((i: { verdict: string }) => i.verdict), ['progress', 'green']);
      assert.match(report.iterations[0].note, /the suite loads again/);
      assert.deepStrictEqual(report.iterations[0].failing, ['tally > sums'], 'once it loads, the wrong sum shows');
      assert.strictEqual(report.llmCalls, 2);
      const firstPrompt = server.requests[0].body.messages.map((m: { content: string }) => m.content).join('\n');
      assert.match(firstPrompt, /## The test suite did not load or run properly/);
      assert.match(firstPrompt, /SyntaxError: missing \) after argument list/);
      assert.match(firstPrompt, /src\/tally\.js\n```/, 'the file that does not load is shown');
      assert.match(fs.readFileSync(path.join(dir, 'src', 'tally.js'), 'utf8'), /total \+ v, 0\);/);
    });
  }
});
