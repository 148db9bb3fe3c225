// What an agent CLI changed among the files snapshots do not record (dependencies, git-ignored local settings).
// Those changes cannot be rolled back, so they are named in the attempt's note and the run's warnings, and the
// run's final witness is taken again from disk. Caches and build output that any test run rewrites are left out.
import { minimatch } from 'minimatch';

const REGENERATED = [
  '**/__pycache__/**', '**/*.pyc', '**/.pytest_cache/**', '**/.mypy_cache/**', '**/.ruff_cache/**', '**/.cache/**',
  '**/node_modules/.cache/**', '**/node_modules/.vite/**', '**/node_modules/.vitest/**', '**/*.tsbuildinfo',
  'coverage/**', '.nyc_output/**', 'target/**', 'dist/**', 'build/**', 'out/**', '**/.turbo/**', '**/.next/**',
];

export function changedUnrecorded(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed = new Set<string>();
  for (const [p, v] of after) if (before.get(p) !== v) changed.add(p);
  for (const p of before.keys()) if (!after.has(p)) changed.add(p);
  return [...changed].filter((p) => !REGENERATED.some((g) => minimatch(p, g, { dot: true }))).sort();
}
