// GoogleTest: a test binary run directly (`./build/tests/semver_tests`, maybe after `cmake --build build &&`); its
// console and --gtest_output=xml read as `Suite > Test` (value-parameterized `Inst/Suite > Test/0`, typed
// `Suite/0 > Test`); a build that fails first is a load error; narrowed by --gtest_filter; not measured.
import type { Runner } from '../runner';
import { CMAKE_REGENERATED, CXX_TEST_SOURCES, testBinaryAt } from '../common/cxxFacts';

export const gtest: Runner = {
  name: 'gtest',
  formats: ['gtest'],
  startsAt: (w, i) => (testBinaryAt(w, i, /^--gtest_/) ? i + 1 : null),
  files: { tests: [...CXX_TEST_SOURCES, '**/test/**', '**/tests/**'], config: [] },
  regenerated: CMAKE_REGENERATED,
  // gtest's XML report: a root suite named AllTests.
  junitReports: /<testsuites\b[^>]*\bname="AllTests"/,
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  code: () => (require('./code') as typeof import('./code')).gtestCode,
};
