// What the C++ rooms (ctest, gtest, Catch2) share among their facts: which word runs a test binary, and the build
// folders CMake writes.
import type { Words } from '../../base/commandWords';

/**
 * Whether `words[i]` is the program a command runs, given as a path to a test binary (`./build/tests/semver_tests`,
 * `build/unit_test`): a word with a folder in it, named like a test, with only `VAR=value` words before it. The
 * runner's own flags (`--gtest_filter`, Catch2's `-r junit`) name it too, wherever it is.
 */
export function testBinaryAt(words: Words | readonly string[], i: number, ownFlag: RegExp): boolean {
  const word = words[i];
  if (!word || word.startsWith('-') || !words.slice(0, i).every((w) => /^[A-Za-z_]\w*=/.test(w))) return false;
  const base = word.split('/').pop() ?? '';
  const testName = /(?:^|[_-])(?:unit_?)?tests?$/i.test(base) || /[a-z0-9](?:Unit)?Tests?$/.test(base);
  // A flag alone makes a binary of a path (./build/checks -r junit), never of a wrapper or a Node tool: `npx mocha
  // --reporter spec` shares Catch2's --reporter.
  if (words.slice(i + 1).some((w) => ownFlag.test(w)) && (testName || (word.includes('/') && !word.includes('node_modules/')))) return true;
  return word.includes('/') && testName;
}

/** What a CMake build writes (never an agent's change). */
export const CMAKE_REGENERATED = ['**/CMakeFiles/**', '**/CMakeCache.txt', '**/Testing/Temporary/**', '**/CTestTestfile.cmake', '**/cmake_install.cmake'];

/** C and C++ test sources by their names (the folders test/ and tests/ are every runner's already). */
export const CXX_TEST_SOURCES = ['**/*_test.cc', '**/*_test.cpp', '**/*_tests.cc', '**/*_tests.cpp', '**/*_unittest.cc', '**/*_unittest.cpp', '**/test_*.cc', '**/test_*.cpp'];
