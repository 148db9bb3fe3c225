// Catch2 (v2, Debian's; v3's console and reports read the same): a test binary run directly; its console, `-r junit`
// and `-r xml` read as `test case > section > section`; a build that fails first (a Catch2 macro's compile error) is a
// load error with its files and lines; narrowed by test-case names, escaped as Catch2's test specs need; not measured.
import type { Runner } from '../runner';
import { CMAKE_REGENERATED, CXX_TEST_SOURCES, testBinaryAt } from '../common/cxxFacts';

export const catch2: Runner = {
  name: 'catch2',
  formats: ['catch2'],
  startsAt: (w, i) => (testBinaryAt(w, i, /^(?:--reporter|--success|--section|--list-tests|--use-colour)\b/) ? i + 1 : null),
  files: { tests: [...CXX_TEST_SOURCES, '**/test/**', '**/tests/**'], config: [] },
  regenerated: CMAKE_REGENERATED,
  // A test spec that matched nothing (Catch2 v2 exits 2, v3 exits 2 with --allow-running-no-tests unset).
  noTests: [/^No test cases matched '.*'$/m, /^No tests ran$/m],
  // Catch2's JUnit reporter: a free test case's classname is `<binary>.global`.
  junitReports: /<testcase classname="[^"]*\.global" name="/,
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  code: () => (require('./code') as typeof import('./code')).catch2Code,
};
