// C and C++ through the real CLI with real toolchains (Debian's cmake, g++, googletest, catch2): on the fixture
// projects test/fixtures/projects/cpp-semver (GoogleTest) and cpp-textkit (Catch2), each put in the states of
// test/fixtures/regenerate/cpp-states.json, `greenloop verify` on the command it suggests itself
// (`cmake --build build && ctest --test-dir build --output-on-failure`) gives exactly the failing IDs that ctest's own
// --output-junit report gives (read by cpp_truth.py, which never calls Greenloop), `--junit` the same, and a compile
// error is a load error with its file and line; `greenloop fix` with a scripted model makes progress, is refused a
// test edit, and ends green, each attempt running the failing tests first (`ctest -R`).
// One build folder per project, configured and built in `before` (a Catch2 main takes a minute of one core): a heavy suite.
import * as assert from 'assert';
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, runCli, tempDir, tempProject } from '../support/cli';
import { needToolchain } from '../support/toolchains';
import { startFakeOpenAIServer } from '../../support/fakeOpenAIServer';
import { answer, edit } from '../../support/calcAnswers';

const TRUTH = path.join(ROOT, 'test', 'fixtures', 'regenerate', 'cpp_truth.py');
const COMMAND = 'cmake --build build && ctest --test-dir build --output-on-failure';

function put(dir: string, project: string, state: string): void {
  execFileSync('python3', [TRUTH, 'apply', dir, project, state]);
}

/** ctest's own JUnit report of the state the folder is in, read by the ground-truth script. */
function truth(dir: string): string[] {
  spawnSync('bash', ['-c', 'cmake --build build && ctest --test-dir build --output-junit truth.xml'], { cwd: dir, stdio: 'ignore' });
  return JSON.parse(execFileSync('python3', [TRUTH, 'ids', 'ctest', path.join(dir, 'build', 'truth.xml')], { encoding: 'utf8' })).failing;
}

async function verify(dir: string, extra: string[] = []): Promise<any> {
  const res = await runCli(['verify', '--cwd', dir, '--tsc', 'off', ...extra], { timeoutMs: 300_000 });
  assert.ok(res.stdout.trim(), res.stderr);
  return JSON.parse(res.stdout);
}

for (const { project, compileAt } of [
  { project: 'cpp-semver', compileAt: { file: 'src/version.cpp', line: 21 } },
  { project: 'cpp-textkit', compileAt: { file: 'tests/wrap_test.cpp', line: 26 } },
]) {
  describe(`${project}: greenloop verify on ctest, against ctest's own report (real cmake)`, function () {
    this.timeout(900_000);
    let dir: string;
    before(() => {
      needToolchain('cmake', 'g++', 'gtest', 'catch2');
      dir = tempProject(project);
      execFileSync('cmake', ['-S', '.', '-B', 'build'], { cwd: dir, stdio: 'ignore' });
      execFileSync('cmake', ['--build', 'build'], { cwd: dir, stdio: 'ignore' });
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    for (const state of ['green', 'one', 'two']) {
      it(`${state}: the suggested command's failing IDs are ctest's --output-junit IDs, and --junit reads the same`, async () => {
        put(dir, project, state);
        const want = truth(dir);
        const plain = await verify(dir);
        assert.deepStrictEqual([...plain.failing].sort(), want);
        assert.strictEqual(plain.green, want.length === 0);
        assert.strictEqual(plain.loadError, false);
        const junit = await verify(dir, ['--test-cmd', 'cmake --build build && ctest --test-dir build --output-junit junit.xml', '--junit', 'build/junit.xml']);
        assert.deepStrictEqual([...junit.failing].sort(), want);
      });
    }

    it('compile: a load error naming the file and line, never green', async () => {
      put(dir, project, 'compile');
      const r = await verify(dir, ['--test-cmd', COMMAND]);
      assert.strictEqual(r.green, false);
      assert.strictEqual(r.loadError, true);
      assert.deepStrictEqual(r.failing, []);
      const at = (r.loadErrorFiles ?? r.loadErrors ?? []).find((e: any) => (typeof e === 'string' ? e : e.file) === compileAt.file);
      assert.ok(at, JSON.stringify(r));
      if (typeof at !== 'string' && at.line !== undefined) assert.strictEqual(at.line, compileAt.line);
      put(dir, project, 'green');
    });
  });
}

describe('cpp-semver: greenloop fix through ctest with a scripted model (real cmake)', function () {
  this.timeout(900_000);
  it('progress, a test edit refused, green; every attempt runs the failing tests first (ctest -R)', async () => {
    needToolchain('cmake', 'g++', 'gtest');
    const dir = tempProject('cpp-semver');
    const stateDir = tempDir('state');
    const server = await startFakeOpenAIServer([]);
    try {
      execFileSync('cmake', ['-S', '.', '-B', 'build'], { cwd: dir, stdio: 'ignore' });
      put(dir, 'cpp-semver', 'two');
      const fixCompare = edit('src/version.cpp', '  if (a.pre.empty()) return -1;', '  if (a.pre.empty()) return 1;', 'A release outranks its pre-releases.');
      const weakenTest = edit('tests/split_test.cpp', '  ASSERT_EQ(fields.size(), 3u);', '  ASSERT_EQ(fields.size(), 2u);', 'The test expects too much.');
      const fixSplit = edit('src/split.cpp', '      if (!field.empty()) fields.push_back(field);', '      fields.push_back(field);', 'Empty fields are kept.');
      server.push(answer(fixCompare), answer(weakenTest), answer(fixSplit));
      const res = await runCli(['fix', '--cwd', dir, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream', '--tsc', 'off',
        '--state-dir', stateDir, '--json', '--max-iterations', '5'], { timeoutMs: 800_000 });
      const report = JSON.parse(res.stdout);
      assert.strictEqual(report.outcome, 'green', res.stderr);
      assert.deepStrictEqual(report.baseline.failing.sort(), ['SplitTest.KeepsEmptyFields', 'VersionTest.ReleaseOutranksCandidate']);
      const verdicts = report.iterations.map((i: any) => i.verdict);
      assert.deepStrictEqual(verdicts, ['progress', 'invalid-proposal', 'green'], res.stderr);
      for (const i of [report.iterations[0], report.iterations[2]]) {
        assert.strictEqual(i.testRuns[0].scope, 'targeted', JSON.stringify(i.testRuns));
        assert.match(i.testRuns[0].command ?? '', /^cmake --build build && ctest --test-dir build --output-on-failure -R '\^\(/);
        assert.ok(i.testRuns.some((r: any) => r.scope === 'full'), JSON.stringify(i.testRuns));
      }
      assert.match(report.iterations[1].note, /tests\/split_test\.cpp/);
      assert.match(fs.readFileSync(path.join(dir, 'tests', 'split_test.cpp'), 'utf8'), /3u/);
    } finally {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
  });
});

describe('cpp-textkit: greenloop fix through ctest over Catch2 with a scripted model (real cmake)', function () {
  this.timeout(900_000);
  it('progress, a test edit refused, green; every attempt runs the failing test cases first (ctest -R by their names)', async () => {
    needToolchain('cmake', 'g++', 'catch2');
    const dir = tempProject('cpp-textkit');
    const stateDir = tempDir('state');
    const server = await startFakeOpenAIServer([]);
    try {
      execFileSync('cmake', ['-S', '.', '-B', 'build'], { cwd: dir, stdio: 'ignore' });
      put(dir, 'cpp-textkit', 'two');
      const fixTitle = edit('src/case.cpp', "    start = u == ' ';", '    start = std::isspace(u) != 0;', 'Any white space starts a word, a tab too.');
      const weakenTest = edit('tests/case_test.cpp', '      CHECK(title("a\\tbC") == "A\\tBc");', '      CHECK(title("a\\tbC") == "A\\tbc");', 'The test expects too much.');
      const fixSnake = edit('src/case.cpp', "    if (std::isupper(u)) out += '_';", "    if (std::isupper(u) && i > 0) out += '_';", 'No underscore before the first letter.');
      server.push(answer(fixTitle), answer(weakenTest), answer(fixSnake));
      const res = await runCli(['fix', '--cwd', dir, '--actor', 'openai', '--base-url', server.url, '--model', 'scripted', '--no-stream', '--tsc', 'off',
        '--state-dir', stateDir, '--json', '--max-iterations', '5'], { timeoutMs: 800_000 });
      const report = JSON.parse(res.stdout);
      assert.strictEqual(report.outcome, 'green', res.stderr);
      assert.deepStrictEqual(report.baseline.failing.sort(), ['snake case splits camel humps', 'title case']);
      assert.deepStrictEqual(report.iterations.map((i: any) => i.verdict), ['progress', 'invalid-proposal', 'green'], res.stderr);
      assert.match(report.iterations[0].testRuns[0].command ?? '', /^cmake --build build && ctest --test-dir build --output-on-failure -R '\^\(.*title case.*\)\$'$/);
      for (const i of [report.iterations[0], report.iterations[2]]) {
        assert.strictEqual(i.testRuns[0].scope, 'targeted', JSON.stringify(i.testRuns));
        assert.ok(i.testRuns.some((r: any) => r.scope === 'full'), JSON.stringify(i.testRuns));
      }
      assert.match(report.iterations[1].note, /tests\/case_test\.cpp/);
      assert.match(fs.readFileSync(path.join(dir, 'tests', 'case_test.cpp'), 'utf8'), /"A\\tBc"/);
    } finally {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
