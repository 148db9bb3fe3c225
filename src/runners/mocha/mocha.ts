// mocha: `mocha`, `npx mocha`, `_mocha` (and through npm scripts); its spec, list, dot, tap, xunit and JSON reporters;
// a file that does not load as mocha 10+ and mocha 8-9 report it; narrowed with --grep and its spec reporter;
// measured with V8's own coverage.
import type { Runner } from '../runner';
import { JS_ASSERTION_MODULES, JS_REGENERATED, JS_TAMPER, NPM_CONFIG, PACKAGE_TEST_PART } from '../common/javascript';

export const mocha: Runner = {
  name: 'mocha',
  formats: ['mocha'],
  startsAt: (w, i) => (/(^|\/)_?mocha$/.test(w[i]) ? i + 1 : null),
  files: { tests: ['**/*.test.*', '**/*.spec.*', '**/test/**'], config: ['**/.mocharc*', ...NPM_CONFIG] },
  parts: [PACKAGE_TEST_PART],
  tamper: JS_TAMPER,
  assertionModules: JS_ASSERTION_MODULES,
  regenerated: JS_REGENERATED,
  noTests: [/\bError: No test files found:?\s*(.*)/],
  // mocha names no file: a failing test's file is found from its stack among the workspace's files.
  narrowNeedsFiles: true,
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  code: () => (require('./code') as typeof import('./code')).mochaCode,
};
