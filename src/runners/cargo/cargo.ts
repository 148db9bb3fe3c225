// cargo test: libtest's report per test binary, IDs as module paths; a crate that does not compile; fail-fast said;
// narrowed to exact names; not measured (no coverage of its own).
import type { Runner } from '../runner';

export const cargo: Runner = {
  name: 'cargo',
  formats: ['cargo'],
  startsAt: (w, i) => (/(^|\/)cargo$/.test(w[i]) && w[i + 1] === 'test' ? i + 2 : null),
  files: { tests: ['**/tests/**'], config: [] },
  regenerated: ['target/**'],
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  code: () => (require('./code') as typeof import('./code')).cargoCode,
};
