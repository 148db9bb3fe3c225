// The loop options a run gets when no flag or setting says otherwise: every host (the CLI, the extension's settings,
// the Action) starts from these. They live above shared/config.ts because the protected files come from the runners.
import { DEFAULT_MAX_ANSWER_BYTES, DEFAULT_SNAPSHOT_EXCLUDES } from '../shared/config';
import type { LoopConfig } from '../shared/config';
import { DEFAULT_PROTECTED_GLOBS } from './protectedGlobs';

/**
 * GREENLOOP_COVERAGE_FLOOR_MS, when it is a whole number of milliseconds; otherwise the core's 5 s stands (the report
 * says which). Applied where a run is assembled (runFix), not in the defaults the hosts' settings are compared with.
 */
export function coverageFloorFromEnv(env: NodeJS.ProcessEnv = process.env): { coverageFloorMs: number } | Record<string, never> {
  const raw = env.GREENLOOP_COVERAGE_FLOOR_MS?.trim();
  return raw && /^\d+$/.test(raw) ? { coverageFloorMs: Number(raw) } : {};
}

export const DEFAULT_LOOP_CONFIG: LoopConfig = {
  maxIterations: 8,
  maxTokens: 200_000,
  maxMinutes: 30,
  verifyTimeoutS: 300,
  patience: 2,
  onGiveUp: 'keep-best',
  protectedGlobs: DEFAULT_PROTECTED_GLOBS,
  allowTestEdits: false,
  snapshotExcludes: DEFAULT_SNAPSHOT_EXCLUDES,
  flakyReruns: 2,
  crossRunLimit: 3,
  maxAnswerBytes: DEFAULT_MAX_ANSWER_BYTES,
};
