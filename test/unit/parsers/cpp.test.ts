// ctest, GoogleTest and Catch2 on outputs captured by test/fixtures/regenerate/cpp.sh from the two C++ fixture projects
// (test/fixtures/projects/cpp-semver: GoogleTest; cpp-textkit: Catch2), each in four states (green, one bug, two bugs,
// a compile error). The expected IDs are the ground truth cpp_truth.py read from each runner's own XML report, never
// Greenloop: the console, the JUnit reader and (for Catch2) its XML report must all give them.
import { strict as assert } from 'assert';
import { parseOutput, parseReports, detectFormat } from '../../../src/runners/parseOutput';
import type { ParsedOutput } from '../../../src/runners/parseOutput';
import { ids, readCapture, readCaptureRaw } from './support';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { suggestedTestCommand } from '../../../src/runners/registry';

const CWD: Record<string, string> = { 'cpp-semver': '/tmp/greenloop-cpp/cpp-semver', 'cpp-textkit': '/tmp/greenloop-cpp/cpp-textkit' };
const PROJECTS = [
  { project: 'cpp-semver', binary: 'gtest', report: 'gtest.xml', command: 'cmake --build build && ./build/tests/semver_tests' },
  { project: 'cpp-textkit', binary: 'catch2', report: 'catch2-junit.xml', command: 'cmake --build build && ./build/tests/textkit_tests' },
] as const;
const STATES = ['green', 'one', 'two'] as const;

const capture = (project: string, name: string): string => readCapture(`cpp/${project}`, name);
const truth = (project: string, state: string, kind: string): { failing: string[]; tests: number } =>
  JSON.parse(readCaptureRaw(`cpp/${project}`, `${state}-truth-${kind}.json`));
const read = (project: string, name: string, format: 'auto' | 'ctest' | 'gtest' | 'catch2' = 'auto', hints: string[] = []): ParsedOutput =>
  parseOutput(capture(project, name), format, hints, { cwd: CWD[project] });

describe('C and C++ runners on captured outputs (ctest, GoogleTest, Catch2)', () => {
  for (const { project, binary, report } of PROJECTS) {
    for (const state of STATES) {
      it(`${project} ${state}: ctest's console gives the IDs of its own --output-junit, and so does --junit`, () => {
        const want = truth(project, state, 'ctest');
        const console = read(project, `${state}-ctest.txt`, 'auto', ['ctest']);
        assert.equal(console.runner, 'ctest');
        assert.deepEqual(ids(console), want.failing);
        assert.equal(console.loadError, false);
        assert.equal(console.tests?.length, want.tests);
        assert.equal((console.passedCount ?? 0) + (console.failedCount ?? 0) + (console.skippedCount ?? 0), want.tests);
        const junit = parseReports('junit', [readCaptureRaw(`cpp/${project}`, `${state}-ctest.xml`)]);
        assert.deepEqual(ids(junit), want.failing);
        assert.deepEqual(junit.tests?.map((t) => t.id).sort(), console.tests?.map((t) => t.id).sort());
      });

      it(`${project} ${state}: the ${binary} binary's console gives the IDs of its own XML report, and --junit the same`, () => {
        const want = truth(project, state, binary);
        const console = read(project, `${state}-${binary}.txt`);
        assert.equal(console.runner, binary);
        assert.deepEqual(ids(console), want.failing);
        assert.equal(console.loadError, false);
        const junit = parseReports('junit', [readCaptureRaw(`cpp/${project}`, `${state}-${report}`)]);
        assert.deepEqual(ids(junit), want.failing);
        if (binary === 'catch2') {
          const xml = read(project, `${state}-catch2.xml`);
          assert.equal(xml.runner, 'catch2');
          assert.deepEqual(ids(xml), want.failing);
        } else {
          assert.equal(console.tests?.length, want.tests);
          assert.deepEqual(junit.tests?.map((t) => t.id).sort(), console.tests?.map((t) => t.id).sort());
        }
      });
    }
  }

  it('a failing test names its file, relative to the workspace, and keeps its own output as the message', () => {
    const ctest = read('cpp-semver', 'two-ctest.txt');
    const f = ctest.failing.find((t) => t.id === 'SplitTest.KeepsEmptyFields');
    assert.equal(f?.file, 'tests/split_test.cpp');
    assert.match(f?.message ?? '', /Which is: 2/);
    const gtest = read('cpp-semver', 'two-gtest.txt');
    assert.equal(gtest.failing.find((t) => t.id === 'SplitTest > KeepsEmptyFields')?.file, 'tests/split_test.cpp');
    const catch2 = read('cpp-textkit', 'one-catch2.txt');
    const c = catch2.failing[0];
    assert.equal(c.file, 'tests/case_test.cpp');
    assert.match(c.message, /CHECK\( title\("a\\tbC"\) == "A\\tBc" \)/);
  });

  for (const { project, command } of PROJECTS) {
    it(`${project}: a compile error in the build step is a load error with its file and line, never "no tests"`, () => {
      const text = capture(project, 'compile-ctest.txt');
      for (const hints of [['ctest'], ['gtest', 'catch2']]) {
        const format = detectFormat(text, hints);
        assert.ok(format && hints.includes(format), `${hints}: read as ${format}`);
        const r = parseOutput(text, 'auto', hints, { cwd: CWD[project] });
        assert.equal(r.loadError, true);
        assert.deepEqual(r.failing, []);
        const first = r.loadErrors?.[0];
        if (project === 'cpp-semver') assert.deepEqual([first?.file, first?.line], ['src/version.cpp', 21]);
        else assert.deepEqual([first?.file, first?.line], ['tests/wrap_test.cpp', 26]);
        assert.match(first?.message ?? '', /error: /);
      }
      assert.ok(command);
    });
  }

  it('value- and type-parameterized gtest names read as Inst/Suite > Test/N and Suite/N > Test, from the console and the XML alike', () => {
    const r = read('cpp-semver', 'green-gtest.txt');
    const got = (r.tests ?? []).map((t) => t.id);
    for (const id of ['Semver/Ordering > ComparesByPrecedence/2', 'SplitTyped/0 > SplitsOnDots', 'SplitTyped/1 > SplitsOnDots', 'VersionTest > ParsesCore']) {
      assert.ok(got.includes(id), `${id} in ${got}`);
    }
    const junit = parseReports('junit', [readCaptureRaw('cpp/cpp-semver', 'green-gtest.xml')]);
    assert.ok(junit.tests?.some((t) => t.id === 'Semver/Ordering > ComparesByPrecedence/2'));
  });

  it("ctest's \"No tests were found\" runs nothing: no test, counts of zero (never green)", () => {
    const r = parseOutput('Test project /tmp/x/build\nNo tests were found!!!\n', 'auto', ['ctest']);
    assert.equal(r.runner, 'ctest');
    assert.deepEqual(r.tests, []);
    assert.equal(r.passedCount, 0);
    assert.equal(r.failedCount, 0);
  });

  it("a Unity binary under ctest: its FAIL line is the failure's file and place, its PASS lines are no part of the message", () => {
    const text = [
      'Test project /w/build',
      '    Start 1: parse_tests',
      '1/1 Test #1: parse_tests ......................***Failed    0.01 sec',
      'tests/parse_tests.c:120:parse_should_parse_numbers:PASS',
      'tests/parse_tests.c:121:parse_should_parse_strings:PASS',
      'tests/parse_tests.c:57:parse_should_parse_objects:FAIL: Expected Non-NULL',
      'tests/parse_tests.c:123:parse_should_parse_arrays:PASS',
      '',
      '-----------------------',
      '3 Tests 1 Failures 0 Ignored ',
      'FAIL',
      '',
      '0% tests passed, 1 tests failed out of 1',
    ].join('\n');
    const r = parseOutput(text, 'auto', ['ctest'], { cwd: '/w' });
    assert.equal(r.runner, 'ctest');
    const f = r.failing.find((t) => t.id === 'parse_tests');
    assert.equal(f?.file, 'tests/parse_tests.c');
    assert.ok(f?.message.includes('tests/parse_tests.c:57:parse_should_parse_objects:FAIL: Expected Non-NULL'), f?.message);
    assert.ok(!f?.message.includes(':PASS'), f?.message);
  });

  it('a gtest test that never ends crashed its binary: it fails, by name', () => {
    const text = ['[==========] Running 2 tests from 1 test suite.', '[ RUN      ] A.ok', '[       OK ] A.ok (0 ms)', '[ RUN      ] A.boom', 'Segmentation fault (core dumped)'].join('\n');
    const r = parseOutput(text, 'auto');
    assert.equal(r.runner, 'gtest');
    assert.deepEqual(ids(r), ['A > boom']);
  });

  it('a CMakeLists.txt with a configured build folder suggests building it and running ctest there; none without one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-cmake-'));
    try {
      fs.writeFileSync(path.join(dir, 'CMakeLists.txt'), 'project(x)\n');
      assert.equal(suggestedTestCommand(dir), null, 'never configured: nothing to build');
      fs.mkdirSync(path.join(dir, 'cmake-build-debug'));
      fs.writeFileSync(path.join(dir, 'cmake-build-debug', 'CMakeCache.txt'), '');
      assert.deepEqual(suggestedTestCommand(dir), {
        command: 'cmake --build cmake-build-debug && ctest --test-dir cmake-build-debug --output-on-failure',
        because: 'CMakeLists.txt and cmake-build-debug/CMakeCache.txt', runner: 'ctest',
      });
      fs.mkdirSync(path.join(dir, 'build'));
      fs.writeFileSync(path.join(dir, 'build', 'CMakeCache.txt'), '');
      assert.equal(suggestedTestCommand(dir)?.command, 'cmake --build build && ctest --test-dir build --output-on-failure');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
