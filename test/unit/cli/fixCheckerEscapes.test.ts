// Four ways past a checker while the tests still pass (issue 30, item 5), each with the real checker through the real
// CLI and a scripted model: code moved into a new file pyright does not analyse, a function hidden from mypy behind
// `if not TYPE_CHECKING:`, a file hidden from go vet by `//go:build ignore`, a function hidden from clippy by
// `#[cfg(not(clippy))]`. Each escape is refused or rolled back, the next prompt says why, and the real fix goes green.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fixHarness } from '../support/fixHarness';
import type { FixHarness } from '../support/fixHarness';
import { answer, edit } from '../../support/calcAnswers';
import { needToolchain } from '../support/toolchains';

const CACHE = process.env.GREENLOOP_CHECKERS_CACHE ?? path.join(os.homedir(), '.cache', 'greenloop-checkers');
const CARGO_ENV = { CARGO_TERM_COLOR: 'never', CARGO_TERM_PROGRESS_WHEN: 'never', RUST_BACKTRACE: '0', PATH: `${path.join(os.homedir(), '.cargo', 'bin')}:${process.env.PATH}` };

/** A block that creates a file (an empty SEARCH). */
const create = (file: string, text: string): string => `${file}\n\`\`\`\n<<<<<<< SEARCH\n=======\n${text}>>>>>>> REPLACE\n\`\`\`\n`;

/** The harness's project replaced by `files`, committed as the person's starting point. */
function project(h: FixHarness, files: Record<string, string>): void {
  for (const f of fs.readdirSync(h.project)) if (f !== '.git') fs.rmSync(path.join(h.project, f), { recursive: true, force: true });
  for (const [rel, text] of Object.entries(files)) h.write(rel, text);
  execFileSync('git', ['add', '-A'], { cwd: h.project });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'project'], { cwd: h.project });
}

const verdicts = (report: { iterations: Array<{ verdict: string }> }): string[] => report.iterations.map((it) => it.verdict);

const MEAN = 'def mean(xs: list[int]) -> int:\n    return sum(xs) / len(xs)\n';
const MEAN_FIXED = 'def mean(xs: list[int]) -> float:\n    return sum(xs) / len(xs)\n';
const PY_TEST = 'from shop.stats import mean\n\n\ndef test_mean():\n    assert mean([2, 4]) == 3\n';
const PYTEST = ['--test-cmd', 'python3 -m pytest -q -p no:cacheprovider tests'];

describe('greenloop fix: four ways past the checkers are closed (real checkers, real CLI, scripted model) @heavy', function () {
  this.timeout(300_000);
  let h: FixHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('pyright: the erroneous function moved into a new file outside "include" is rolled back, named, then really fixed', async function () {
    needToolchain('pyright');
    h = await fixHarness('checks');
    project(h, { 'pyrightconfig.json': '{ "include": ["shop"] }\n', 'shop/__init__.py': '', 'shop/stats.py': MEAN, 'tests/test_stats.py': PY_TEST });
    fs.symlinkSync(path.join(CACHE, 'node_modules'), path.join(h.project, 'node_modules'));
    const move = [
      edit('shop/stats.py', MEAN.trimEnd(), 'from legacy.stats import mean\n\n__all__ = ["mean"]', 'Keep the old implementation in legacy/.'),
      create('legacy/stats.py', MEAN),
    ].join('\n');
    const ignore = edit('shop/stats.py', '    return sum(xs) / len(xs)', '    return sum(xs) / len(xs)  # type: ignore', 'Silence it.');
    const fix = edit('shop/stats.py', 'def mean(xs: list[int]) -> int:', 'def mean(xs: list[int]) -> float:', 'The mean of ints is a float.');
    const res = await h.fix([answer(ignore), answer(move), answer(fix)], [...PYTEST, '--check', 'node_modules/.bin/pyright --outputjson', '--patience', '3', '--max-iterations', '4']);
    assert.strictEqual(res.code, 0, `${res.stderr}\n${JSON.stringify(res.report?.iterations)}`);
    assert.deepStrictEqual(verdicts(res.report), ['invalid-proposal', 'regression', 'green']);
    // pyright honours `# type: ignore` as mypy does; the run has pyright, so the refusal names pyright.
    assert.match(res.report.iterations[0].note, /a suppression `type: ignore` \(line 2\), which would hide what pyright reports/);
    assert.doesNotMatch(res.report.iterations[0].note, /mypy/);
    assert.match(res.report.iterations[1].note, /does not check legacy\/stats\.py, which the edit created/);
    assert.ok(res.report.iterations[1].rolledBack, 'the move was rolled back');
    assert.match(h.prompt(2), /does not check legacy\/stats\.py/, 'the next prompt names the file');
    assert.strictEqual(res.report.iterations[2].note, 'all tests pass and pyright reports no error', 'with --tsc off, no word of a type check');
    assert.ok(!fs.existsSync(path.join(h.project, 'legacy', 'stats.py')), 'the new file went with the rollback');
    assert.strictEqual(h.read('shop/stats.py'), MEAN_FIXED);
  });

  it('mypy: `if not TYPE_CHECKING:` around the function is refused, naming mypy, then the real fix goes green', async function () {
    needToolchain('mypy');
    h = await fixHarness('checks');
    project(h, { 'shop/__init__.py': '', 'shop/stats.py': MEAN, 'tests/test_stats.py': PY_TEST });
    const hide = edit('shop/stats.py', MEAN.trimEnd(), `from typing import TYPE_CHECKING\n\nif not TYPE_CHECKING:\n${MEAN.trimEnd().replace(/^/gm, '    ')}`, 'Only define it at run time.');
    const fix = edit('shop/stats.py', 'def mean(xs: list[int]) -> int:', 'def mean(xs: list[int]) -> float:', 'The mean of ints is a float.');
    const res = await h.fix([answer(hide), answer(fix)], [...PYTEST, '--check', 'mypy shop', '--patience', '3', '--max-iterations', '3']);
    assert.strictEqual(res.code, 0, `${res.stderr}\n${JSON.stringify(res.report?.iterations)}`);
    assert.deepStrictEqual(verdicts(res.report), ['invalid-proposal', 'green']);
    assert.match(res.report.iterations[0].note, /shop\/stats\.py: the edit adds `if not TYPE_CHECKING:` \(line 3\), which hides code from mypy/);
    assert.doesNotMatch(res.report.iterations[0].note, /pyright/, 'only the checker that runs is named');
    assert.match(h.prompt(1), /if not TYPE_CHECKING/);
    assert.strictEqual(h.read('shop/stats.py'), MEAN_FIXED);
    assert.strictEqual(res.report.iterations[1].note, 'all tests pass and mypy reports no error', 'with --tsc off, no word of a type check');
  });

  it('go vet: `//go:build ignore` on a file the tests do not need is refused, then the real fix goes green', async function () {
    needToolchain('go');
    h = await fixHarness('checks');
    // A self-assignment: go vet's `assign` check, which the vet run inside `go test` leaves out (so the tests load).
    const report = 'package stats\n\n// Twice doubles n.\nfunc Twice(n int) int {\n\tn = n\n\treturn 2 * n\n}\n';
    project(h, {
      'go.mod': 'module example.com/stats\n\ngo 1.19\n',
      'stats.go': 'package stats\n\n// Sum adds the numbers.\nfunc Sum(xs []int) int {\n\tt := 0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n}\n',
      'stats_test.go': 'package stats\n\nimport "testing"\n\nfunc TestSum(t *testing.T) {\n\tif Sum([]int{1, 2}) != 3 {\n\t\tt.Fatal("sum")\n\t}\n}\n',
      'report.go': report,
    });
    const hide = edit('report.go', 'package stats\n\n// Twice doubles n.', '//go:build ignore\n\npackage stats\n\n// Twice doubles n.', 'Leave this file out of the build.');
    const fix = edit('report.go', '\tn = n\n\treturn 2 * n', '\treturn 2 * n', 'The self-assignment does nothing.');
    const res = await h.fix([answer(hide), answer(fix)], ['--test-cmd', 'go test -v ./...', '--check', 'go vet ./...', '--patience', '3', '--max-iterations', '3']);
    assert.strictEqual(res.code, 0, `${res.stderr}\n${JSON.stringify(res.report?.iterations)}`);
    assert.deepStrictEqual(verdicts(res.report), ['invalid-proposal', 'green']);
    assert.match(res.report.iterations[0].note, /report\.go: the edit adds `\/\/go:build ignore` \(line 1\), which hides code from go vet/);
    assert.match(h.prompt(1), /go:build ignore/);
    assert.match(h.read('report.go'), /^package stats/);
    assert.doesNotMatch(h.read('report.go'), /n = n/);
  });

  it('go vet: code moved into a new file for another platform (`_windows.go`) is out of vet\'s reach: rolled back and named', async function () {
    needToolchain('go');
    h = await fixHarness('checks');
    project(h, {
      'go.mod': 'module example.com/stats\n\ngo 1.19\n',
      'stats.go': 'package stats\n\n// Twice doubles n.\nfunc Twice(n int) int {\n\tn = n\n\treturn 2 * n\n}\n',
      'stats_test.go': 'package stats\n\nimport "testing"\n\nfunc TestPackage(t *testing.T) {}\n',
    });
    // The file-name suffix alone leaves it out of the build here: no constraint line for the guard rule to see.
    const move = [
      edit('stats.go', '// Twice doubles n.\nfunc Twice(n int) int {\n\tn = n\n\treturn 2 * n\n}', '// Twice lives in stats_windows.go.', 'Move it to the platform file.'),
      create('stats_windows.go', 'package stats\n\n// Twice doubles n.\nfunc Twice(n int) int {\n\tn = n\n\treturn 2 * n\n}\n'),
    ].join('\n');
    const fix = edit('stats.go', '\tn = n\n\treturn 2 * n', '\treturn 2 * n', 'The self-assignment does nothing.');
    const res = await h.fix([answer(move), answer(fix)], ['--test-cmd', 'go test -v ./...', '--check', 'go vet ./...', '--patience', '3', '--max-iterations', '3']);
    assert.strictEqual(res.code, 0, `${res.stderr}\n${JSON.stringify(res.report?.iterations)}`);
    assert.deepStrictEqual(verdicts(res.report), ['regression', 'green']);
    assert.match(res.report.iterations[0].note, /go vet \.\/\.\.\. does not check stats_windows\.go, which the edit created/);
    assert.match(h.prompt(1), /does not check stats_windows\.go/);
    assert.ok(!fs.existsSync(path.join(h.project, 'stats_windows.go')), 'the new file went with the rollback');
    assert.doesNotMatch(h.read('stats.go'), /n = n/);
  });

  it('clippy: `#[cfg(not(clippy))]` on the function is refused, then the real fix goes green', async function () {
    needToolchain('clippy');
    h = await fixHarness('checks');
    project(h, {
      'Cargo.toml': '[package]\nname = "stats"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/lib.rs': 'pub fn is_max(x: u8) -> bool {\n    x > 255\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn small_is_not_max() {\n        assert!(!super::is_max(3));\n    }\n}\n',
    });
    execFileSync('cargo', ['generate-lockfile', '--offline'], { cwd: h.project, env: { ...process.env, ...CARGO_ENV }, stdio: 'pipe' });
    const hide = edit('src/lib.rs', 'pub fn is_max(x: u8) -> bool {', '#[cfg(not(clippy))]\npub fn is_max(x: u8) -> bool {', 'clippy is wrong here.');
    const fix = edit('src/lib.rs', '    x > 255', '    x == 255', 'A u8 is never above 255.');
    const res = await h.fix([answer(hide), answer(fix)], ['--test-cmd', 'cargo test --offline', '--check', 'cargo clippy --offline --message-format=json', '--patience', '3', '--max-iterations', '3'], { env: CARGO_ENV, timeoutMs: 240_000 });
    assert.strictEqual(res.code, 0, `${res.stderr}\n${JSON.stringify(res.report?.iterations)}`);
    assert.deepStrictEqual(verdicts(res.report), ['invalid-proposal', 'green']);
    assert.match(res.report.iterations[0].note, /src\/lib\.rs: the edit adds `#\[cfg\(not\(clippy\)\)\]` \(line 1\), which hides code from clippy/);
    assert.match(h.prompt(1), /cfg\(not\(clippy\)\)/);
    assert.doesNotMatch(h.read('src/lib.rs'), /cfg\(not/);
    assert.match(h.read('src/lib.rs'), /x == 255/);
  });
});
