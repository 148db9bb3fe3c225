// jest: its default, --verbose, --json, jest-junit and github-actions reporters, its summary reporter refused; a suite
// that failed to run; narrowed with -t and --runTestsByPath; not measured (it runs transformed copies of the files).
import type { Runner } from '../runner';
import { JS_ASSERTION_MODULES, JS_REGENERATED, JS_TAMPER, NPM_CONFIG, PACKAGE_TEST_PART } from '../common/javascript';

export const jest: Runner = {
  name: 'jest',
  formats: ['jest'],
  startsAt: (w, i) => (/(^|\/)jest$/.test(w[i]) ? i + 1 : null),
  files: { tests: ['**/*.test.*', '**/*.spec.*', '**/__tests__/**'], config: ['**/jest.config.*', ...NPM_CONFIG] },
  parts: [PACKAGE_TEST_PART],
  tamper: JS_TAMPER,
  assertionModules: [...JS_ASSERTION_MODULES, '@jest/globals'],
  regenerated: JS_REGENERATED,
  noTests: [/\bNo tests found, exiting with code \d+/],
  summaryReporter: "jest's summary reporter",
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  code: () => (require('./code') as typeof import('./code')).jestCode,
};
