// ctest: its console (with --output-on-failure, each failing test's own output under it) and --output-junit, a test's
// ID being ctest's own name for it, whole (add_test's NAME; gtest_discover_tests's `Suite.Test`; catch_discover_tests's
// test case name); a build step that fails first (`cmake --build build && ctest …`) is a load error with its files and
// lines; "No tests were found" is never green; narrowed by `-R '^(a|b)$'`; not measured.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Runner, SuggestedCommand } from '../runner';
import { CMAKE_REGENERATED } from '../common/cxxFacts';

export const ctest: Runner = {
  name: 'ctest',
  formats: ['ctest'],
  startsAt: (w, i) => (/(^|\/)ctest$/.test(w[i]) ? i + 1 : null),
  // The CMake files that register tests live with them (tests/CMakeLists.txt is under every runner's tests/**).
  files: { tests: ['**/test/**', '**/tests/**'], config: ['**/CTestCustom.cmake', '**/CTestConfig.cmake'] },
  regenerated: CMAKE_REGENERATED,
  // ctest exits 0 here unless run with --no-tests=error (exit 8); a build folder never configured.
  noTests: [/^No tests were found!!!$/m, /^Error: could not load cache$/m],
  // ctest's JUnit: every testcase carries its run status, its classname repeating its name.
  junitReports: /<testcase name="[^"]*" classname="[^"]*" time="[^"]*" status="(?:run|fail|notrun|disabled)"/,
  suggestCommand: suggestCtest,
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  code: () => (require('./code') as typeof import('./code')).ctestCode,
};

/** A CMake project with a configured build folder (its CMakeCache.txt): build it, then run its tests with ctest. */
function suggestCtest(cwd: string): SuggestedCommand | null {
  if (!existsSync(join(cwd, 'CMakeLists.txt'))) return null;
  const folders = ['build', ...safeList(cwd).filter((d) => d !== 'build').sort()];
  const build = folders.find((d) => existsSync(join(cwd, d, 'CMakeCache.txt')));
  if (!build) return null;
  const dir = /^[\w./-]+$/.test(build) ? build : `'${build.replace(/'/g, `'\\''`)}'`;
  return { command: `cmake --build ${dir} && ctest --test-dir ${dir} --output-on-failure`, because: `CMakeLists.txt and ${build}/CMakeCache.txt` };
}

function safeList(cwd: string): string[] {
  try {
    return readdirSync(cwd, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
  } catch {
    return [];
  }
}
