// The loop options a run gets when no flag or setting says otherwise: every host (the CLI, the extension's settings,
// the Action) starts from these. They live above shared/config.ts because the protected files come from the runners.
import { DEFAULT_MAX_ANSWER_BYTES, DEFAULT_SNAPSHOT_EXCLUDES } from '../shared/config';
import type { LoopConfig } from '../shared/config';
import { DEFAULT_PROTECTED_GLOBS } from './protectedGlobs';

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
