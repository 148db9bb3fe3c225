// Issue 30: `go test` on a module whose packages have no tests ran nothing, and verify called it green. Real go (Debian's
// golang-go, install-runners.sh), the real CLI: a Go run in which no test ran is never green, as with every other runner,
// and a package list that matches nothing cannot run at all — one sentence, before any model call.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, runCli, tempDir } from '../support/cli';
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { answer, edit } from '../../support/calcAnswers';

const TALLY = 'package tally\n\nfunc Count(items []string) int { return len(items) }\n';
const TALLY_TEST = 'package tally\n\nimport "testing"\n\nfunc TestCount(t *testing.T) {\n\tif Count([]string{"a"}) != 1 {\n\t\tt.Fatal("want 1")\n\t}\n}\n';

describe('go test that runs no test, through the CLI (real go)', function () {
  this.timeout(300_000);
  const made: string[] = [];
  // -count=1: a cached "ok" would still be a run of the tests; the build cache stays the machine's.
  const env = { GOFLAGS: '-count=1', GOPROXY: 'off', CGO_ENABLED: '0' };

  before(() => {
    execFileSync('bash', [path.join(ROOT, 'test', 'fixtures', 'targeted', 'install-runners.sh'), 'go'], { stdio: ['ignore', 'ignore', 'inherit'] });
  });
  after(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A module example.com/tally with one package, with or without a test file. */
  function module(withTest: boolean): string {
    const dir = tempDir('go-tally');
    made.push(dir);
    fs.writeFileSync(path.join(dir, 'go.mod'), 'module example.com/tally\n\ngo 1.19\n');
    fs.writeFileSync(path.join(dir, 'tally.go'), TALLY);
    if (withTest) fs.writeFileSync(path.join(dir, 'tally_test.go'), TALLY_TEST);
    fs.mkdirSync(path.join(dir, 'docs'));
    fs.writeFileSync(path.join(dir, 'docs', 'README.md'), 'No Go files here.\n');
    return dir;
  }

  async function verify(dir: string, testCmd: string) {
    const res = await runCli(['verify', '--cwd', dir, '--test-cmd', testCmd, '--tsc', 'off'], { env });
    return { res, w: res.stdout ? JSON.parse(res.stdout) : null };
  }

  it('a module whose only package has no test files, plain and -json: never green, and says it ran no tests', async () => {
    const dir = module(false);
    for (const cmd of ['go test ./...', 'go test -v ./...', 'go test -json ./...']) {
      const { res, w } = await verify(dir, cmd);
      assert.strictEqual(res.code, 1, `${cmd}: ${res.stdout}`);
      assert.strictEqual(w.green, false, cmd);
      assert.strictEqual(w.runner, 'go', cmd);
      assert.strictEqual(w.ran, 0, cmd);
      assert.match(w.warnings[0], /^The test command ran no tests; check its filter or test path/, cmd);
      assert.match(res.stderr, /warning: The test command ran no tests/, cmd);
    }
  });

  it('a -run that matches no test is never green either; the same module with its test is green', async () => {
    const dir = module(true);
    const none = await verify(dir, "go test -run '^TestNoSuch$' ./...");
    assert.strictEqual(none.res.code, 1, none.res.stdout);
    assert.strictEqual(none.w.ran, 0);
    assert.match(none.w.warnings[0], /ran no tests/);
    const all = await verify(dir, 'go test ./...');
    assert.strictEqual(all.res.code, 0, all.res.stdout);
    assert.strictEqual(all.w.green, true);
    assert.deepStrictEqual(all.w.warnings, []);
  });

  for (const [pattern, said] of [
    ['./nothing/...', /pattern \.\/nothing\/\.\.\.: lstat \.\/nothing\/: no such file or directory/],
    ['example.com/tally/nothing/...', /go: warning: "example\.com\/tally\/nothing\/\.\.\." matched no packages/],
    ['./docs', /no Go files in .*docs/],
  ] as const) {
    it(`a package list that matches nothing (${pattern}) cannot run: one sentence quoting go, exit 2`, async () => {
      const dir = module(true);
      const { res } = await verify(dir, `go test ${pattern}`);
      assert.strictEqual(res.code, 2, res.stdout);
      assert.strictEqual(res.stdout, '');
      assert.match(res.stderr, new RegExp(`^greenloop: The test command \`go test ${pattern.replace(/[.*/]/g, '\\$&')}\` found no tests to run \\(${said.source}`));
    });
  }

  it('fix on a module with no test files stops before any model call, saying why', async () => {
    const dir = module(false);
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const server = await startFakeOpenAIServer([answer(edit('tally.go', 'package tally', 'package tally // edited'))]);
    try {
      const state = tempDir('go-tally-state');
      made.push(state);
      const res = await runCli(['fix', '--cwd', dir, '--test-cmd', 'go test ./...', '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream', '--tsc', 'off', '--state-dir', state, '--json'], { env });
      assert.strictEqual(res.code, 1, res.stderr);
      const report = JSON.parse(res.stdout);
      assert.strictEqual(report.outcome, 'escalated');
      assert.strictEqual(report.reason, 'verify-error');
      assert.match(report.reasonText, /ran no tests/);
      assert.strictEqual(server.requests.length, 0, 'no model call');
    } finally {
      await server.close();
    }
  });
});
