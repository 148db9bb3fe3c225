// What the Python runners share: the modules Python runs before any test, the ways to disarm unittest's assertions or
// Python's own from a source file, the bytecode it writes, and `python -m RUNNER` as a way to start one. Facts only.
import type { TamperRule } from '../runner';

/** What Python reads before any test: site customisation. */
export const PYTHON_STARTUP = ['**/sitecustomize.py', '**/usercustomize.py'];

/** unittest's assertions, which pytest runs too (a TestCase's `assert*` and `fail*`). */
export const UNITTEST_TAMPER: TamperRule = { test: /\b(?:unittest\s*\.\s*)?TestCase\s*\.\s*(?:assert\w*|fail\w*)\s*=(?!=)/, what: "replaces one of unittest's assertions" };

export const PYTHON_BUILTINS_TAMPER: TamperRule = { test: /\bbuiltins\s*\.\s*(?:AssertionError|__import__)\s*=(?!=)/, what: 'replaces a Python builtin the tests rely on' };

/** What any Python run writes beside the code. */
export const PYTHON_REGENERATED = ['**/__pycache__/**', '**/*.pyc'];

/** `python -m MODULE` (python3, python3.12, a venv's bin/python) at `words[i]`: the index of the module's first argument. */
export function pythonModuleAt(words: readonly string[], i: number, module: string): number | null {
  return /(^|\/)python[\d.]*$/.test(words[i]) && words[i + 1] === '-m' && words[i + 2] === module ? i + 3 : null;
}
