// node --test (and tsx --test): its spec reporter, and TAP, which it prints when its output is no terminal; its dot
// reporter refused; narrowed with --test-name-pattern; measured with V8's own coverage.
import type { Runner } from '../runner';
import { NODE_DOT } from './dotReporter';
import { JS_ASSERTION_MODULES, JS_REGENERATED, JS_TAMPER, NPM_CONFIG, PACKAGE_TEST_PART } from '../common/javascript';

export const node: Runner = {
  name: 'node',
  formats: ['node', 'tap'],
  startsAt: (w, i) => (/(^|\/)(node|tsx)$/.test(w[i]) && w.includes('--test') ? i + 1 : null),
  files: { tests: ['**/*.test.*', '**/test/**'], config: NPM_CONFIG },
  parts: [PACKAGE_TEST_PART],
  tamper: JS_TAMPER,
  assertionModules: [...JS_ASSERTION_MODULES, 'node:test'],
  regenerated: JS_REGENERATED,
  noTests: [/^Could not find '([^']+)'/m],
  unreadable: (output, exit) => (NODE_DOT.test(output)
    ? `node --test's dot reporter, which names failing tests without their suites (${exit}; use the default spec reporter or --test-reporter=tap)`
    : null),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  code: () => (require('./code') as typeof import('./code')).nodeCode,
};
