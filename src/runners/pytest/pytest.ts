// pytest: `pytest`, `py.test`, `python -m pytest`; its -q, -rA, -v and -x outputs, node ids as IDs; a module or a
// conftest.py that cannot be imported; narrowed by node id; measured by coverage.py; its sections of pyproject.toml,
// setup.cfg and tox.ini protected by content.
import type { Runner } from '../runner';
import { sectionsMatching } from '../../base/iniSections';
import { PYTHON_BUILTINS_TAMPER, PYTHON_REGENERATED, PYTHON_STARTUP, pythonModuleAt, UNITTEST_TAMPER } from '../common/python';

export const pytest: Runner = {
  name: 'pytest',
  formats: ['pytest'],
  startsAt: (w, i) => (/(^|\/)(pytest|py\.test)$/.test(w[i]) ? i + 1 : pythonModuleAt(w, i, 'pytest')),
  files: { tests: ['**/tests/**', '**/test_*.py', '**/*_test.py', '**/conftest.py'], config: ['**/pytest.ini', ...PYTHON_STARTUP] },
  parts: [
    { file: 'pyproject.toml', what: 'the [tool.pytest…] section of pyproject.toml', extract: sectionsMatching(/^tool\.pytest(\.|$)/) },
    { file: 'setup.cfg', what: 'the [tool:pytest] section of setup.cfg', extract: sectionsMatching(/^tool:pytest$/) },
    { file: 'tox.ini', what: 'the [pytest] section of tox.ini', extract: sectionsMatching(/^pytest$/) },
  ],
  tamper: [
    UNITTEST_TAMPER,
    { test: /\bpytest\s*\.\s*(?:fail|raises|approx|skip|xfail|mark)\s*=(?!=)/, what: 'replaces part of pytest' },
    PYTHON_BUILTINS_TAMPER,
  ],
  regenerated: ['**/.pytest_cache/**', ...PYTHON_REGENERATED],
  // pytest's exit code 5.
  noTests: [/^(?:=+ )?no tests ran\b/m],
  testFunction: /^test_\w+$/,
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  code: () => (require('./code') as typeof import('./code')).pytestCode,
};
