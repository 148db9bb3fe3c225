// Python's own runner, `python -m unittest`, and Django's `manage.py test` (or `django-admin test`), which prints the
// same report: default and -v outputs, dotted names read into file-first IDs (names.ts), a module that does not import
// as a load error with its line, failing subtests as failures of their test; narrowed by dotted names (Django's labels
// with -v 2); `python -m unittest` measured by coverage.py.
import type { Runner } from '../runner';
import { PYTHON_BUILTINS_TAMPER, PYTHON_REGENERATED, PYTHON_STARTUP, pythonModuleAt, UNITTEST_TAMPER } from '../common/python';

export const unittest: Runner = {
  name: 'unittest',
  formats: ['unittest'],
  startsAt: (w, i) => pythonModuleAt(w, i, 'unittest') ?? (/(^|\/)(manage\.py|django-admin)$/.test(w[i]) && w[i + 1] === 'test' ? i + 2 : null),
  // Its discovery pattern, test*.py: pytest's test_*.py, Django's tests.py and every module unittest loads as tests.
  files: { tests: ['**/test*.py'], config: PYTHON_STARTUP },
  tamper: [UNITTEST_TAMPER, PYTHON_BUILTINS_TAMPER],
  regenerated: PYTHON_REGENERATED,
  // 3.12 and later (exit code 5); before, "Ran 0 tests" and OK.
  noTests: [/^NO TESTS RAN$/m],
  // Its test methods as they are usually named (`test_parse`); a bare `test…` would take the `tests` folder for one.
  testFunction: /^test_\w+$/,
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  code: () => (require('./code') as typeof import('./code')).unittestCode,
};
