// What go vet and cargo check/clippy analysed, whole (issue 30): their reports name only files with findings, so the
// list comes from the toolchain itself — `go list` and rustc's dep-info — run for real on small projects.
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCheck } from '../../../src/verify/checkers/commandChecker';
import { runChecks } from '../../../src/verify/checkers/runChecks';
import { needToolchain } from '../support/toolchains';

const CARGO_ENV = { ...process.env, CARGO_TERM_COLOR: 'never', CARGO_TERM_PROGRESS_WHEN: 'never', PATH: `${path.join(os.homedir(), '.cargo', 'bin')}:${process.env.PATH}` };

function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-analysed-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

describe('the files a checker analysed, from its toolchain (real go and cargo)', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('go vet: every file go builds here, tests included; not a file its build constraint or name leaves out', async function () {
    needToolchain('go');
    const dir = project({
      'go.mod': 'module example.com/stats\n\ngo 1.19\n',
      'stats.go': 'package stats\n\nfunc Sum() int { return 1 }\n',
      'stats_test.go': 'package stats\n\nimport "testing"\n\nfunc TestSum(t *testing.T) {}\n',
      'hidden.go': '//go:build ignore\n\npackage stats\n\nfunc Hidden() {}\n',
      'stats_windows.go': 'package stats\n\nfunc Windows() {}\n',
      'sub/sub.go': 'package sub\n',
      '_old/old.go': 'package old\n',
    });
    dirs.push(dir);
    const outcome = await runCheck({ command: 'go vet ./...' }, { cwd: dir, timeoutMs: 60_000 });
    assert.ok(outcome.ok, !outcome.ok ? outcome.sentence : '');
    assert.equal(outcome.report.checkedIsComplete, true);
    assert.deepEqual(outcome.report.checked, ['stats.go', 'stats_test.go', 'sub/sub.go']);
    const checks = await runChecks([{ command: 'go vet ./...' }], { cwd: dir, timeoutMs: 60_000 });
    assert.deepEqual(checks.checked['go vet ./...'], ['stats.go', 'stats_test.go', 'sub/sub.go']);
    assert.deepEqual(checks.checkers['go vet ./...'], { sources: ['go vet'], extensions: ['.go'] });
  });

  it('cargo clippy: every source file of the crate it compiled, from rustc\'s dep-info; not a module only the tests compile', async function () {
    needToolchain('clippy');
    const dir = project({
      'Cargo.toml': '[package]\nname = "stats"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/lib.rs': 'mod util;\n#[cfg(test)]\nmod only_tests;\n\npub fn one() -> u8 {\n    util::one()\n}\n',
      'src/util.rs': 'pub fn one() -> u8 {\n    1\n}\n',
      'src/only_tests.rs': 'pub fn two() -> u8 {\n    2\n}\n',
      'src/orphan.rs': 'pub fn three() -> u8 {\n    3\n}\n',
    });
    dirs.push(dir);
    execFileSync('cargo', ['generate-lockfile', '--offline'], { cwd: dir, env: CARGO_ENV, stdio: 'pipe' });
    const command = 'cargo clippy --offline --message-format=json';
    const outcome = await runCheck({ command }, { cwd: dir, timeoutMs: 100_000, env: CARGO_ENV });
    assert.ok(outcome.ok, !outcome.ok ? outcome.sentence : '');
    assert.equal(outcome.report.checkedIsComplete, true);
    assert.deepEqual(outcome.report.checked.filter((f) => f.endsWith('.rs')), ['src/lib.rs', 'src/util.rs']);
    const checks = await runChecks([{ command }], { cwd: dir, timeoutMs: 100_000, env: CARGO_ENV });
    assert.deepEqual(checks.checkers[command], { sources: ['clippy', 'rustc'], extensions: ['.rs'] });

    // A build that fails names no artifact for the crate: its files are unknown, and no whole list is claimed.
    fs.writeFileSync(path.join(dir, 'src', 'util.rs'), 'pub fn one() -> u8 {\n    "x"\n}\n');
    const failed = await runCheck({ command }, { cwd: dir, timeoutMs: 100_000, env: CARGO_ENV });
    assert.ok(failed.ok);
    assert.equal(failed.report.checkedIsComplete, false);
  });
});
