// Where a runner starts in a command's words, after any wrapper (npx, c8, `python -m`): what narrows a command to some
// tests (narrow.ts) and what hints at the runner whose output the verifier reads (../runnerHint.ts).
import type { Words } from './words';

export type RunnerFamily = 'node' | 'mocha' | 'jest' | 'vitest' | 'pytest' | 'unittest' | 'go' | 'cargo';

/** The index of the runner's first argument when `words[i]` starts it, else null. */
export const RUNNER_STARTS: Record<RunnerFamily, (words: Words, i: number) => number | null> = {
  node: (w, i) => (/(^|\/)(node|tsx)$/.test(w[i]) && w.includes('--test') ? i + 1 : null),
  mocha: (w, i) => (/(^|\/)_?mocha$/.test(w[i]) ? i + 1 : null),
  jest: (w, i) => (/(^|\/)jest$/.test(w[i]) ? i + 1 : null),
  vitest: (w, i) => (/(^|\/)vitest$/.test(w[i]) ? i + 1 : null),
  pytest: (w, i) => (/(^|\/)(pytest|py\.test)$/.test(w[i]) ? i + 1 : /(^|\/)python[\d.]*$/.test(w[i]) && w[i + 1] === '-m' && w[i + 2] === 'pytest' ? i + 3 : null),
  // The standard library's runner, and Django's `manage.py test` (or `django-admin test`), which prints its report.
  unittest: (w, i) => (/(^|\/)python[\d.]*$/.test(w[i]) && w[i + 1] === '-m' && w[i + 2] === 'unittest' ? i + 3
    : /(^|\/)(manage\.py|django-admin)$/.test(w[i]) && w[i + 1] === 'test' ? i + 2 : null),
  go: (w, i) => (/(^|\/)go$/.test(w[i]) && w[i + 1] === 'test' ? i + 2 : null),
  cargo: (w, i) => (/(^|\/)cargo$/.test(w[i]) && w[i + 1] === 'test' ? i + 2 : null),
};
