// What an agent CLI changed among the files snapshots do not record (dependencies, git-ignored local settings).
// Those changes cannot be rolled back, so they are named in the attempt's note and the run's warnings, and the
// run's final witness is taken again from disk. Caches and build output that any test run rewrites are left out.
import { minimatch } from 'minimatch';
import type { IterationRecord, RunState } from './runState';
import type { LoopContext } from './loopContext';

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

/** Only agent CLIs write files themselves; a model's edits never reach an unrecorded file (they are refused). */
export async function unrecordedBefore(ctx: LoopContext, state: RunState): Promise<Map<string, string> | null> {
  const { actor, snapshots } = ctx.deps;
  if (!actor.editsWorkspace || !snapshots.unrecordedFingerprint) return null;
  const fp = await snapshots.unrecordedFingerprint();
  if (fp === null) ctx.warn(state, 'There are too many git-ignored files to check which of them the agent changes; changes there cannot be seen or rolled back.');
  return fp;
}

/** Names in the attempt and the run what the agent changed that no snapshot can restore. */
export async function noteUnrecorded(ctx: LoopContext, state: RunState, record: IterationRecord, before: Map<string, string>, applied: boolean): Promise<void> {
  const after = await ctx.deps.snapshots.unrecordedFingerprint?.();
  if (!after) return;
  const changed = changedUnrecorded(before, after);
  if (changed.length === 0) return;
  record.unrecorded = changed;
  state.unrecordedChanged = [...new Set([...(state.unrecordedChanged ?? []), ...changed])].sort();
  const one = changed.length === 1;
  const shown = `${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ` and ${changed.length - 5} more` : ''}`;
  const what = `The agent changed ${changed.length} git-ignored file${one ? '' : 's'} that snapshots do not record (${shown}); Greenloop cannot roll ${one ? 'it' : 'them'} back.`;
  record.note = applied ? what : `${what} Nothing it changed is recorded, so the attempt is not tested.`;
  ctx.warn(state, what);
}
