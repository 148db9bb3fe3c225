// vitest: its default, json, tap, tap-flat and junit reporters; narrowed with -t and its JSON reporter (which names
// every test); not measured (it runs transformed copies of the files).
import type { Runner } from '../runner';
import { JS_ASSERTION_MODULES, JS_REGENERATED, JS_TAMPER, NPM_CONFIG, PACKAGE_TEST_PART } from '../common/javascript';

export const vitest: Runner = {
  name: 'vitest',
  formats: ['vitest'],
  startsAt: (w, i) => (/(^|\/)vitest$/.test(w[i]) ? i + 1 : null),
  files: { tests: ['**/*.test.*', '**/*.spec.*'], config: ['**/vitest.config.*', '**/vitest.workspace.*', ...NPM_CONFIG] },
  parts: [PACKAGE_TEST_PART],
  tamper: JS_TAMPER,
  assertionModules: [...JS_ASSERTION_MODULES, 'vitest'],
  regenerated: [...JS_REGENERATED, '**/node_modules/.vite/**', '**/node_modules/.vitest/**'],
  noTests: [/\bNo test files found, exiting with code \d+/],
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  code: () => (require('./code') as typeof import('./code')).vitestCode,
};
