// One shape for every loop option. The CLI builds it from flags, the extension from settings;
// core/ only ever receives a plain LoopConfig object.

export type OnGiveUp = 'keep-best' | 'restore-baseline' | 'keep-last';
export type TscMode = 'auto' | 'on' | 'off';

export interface LoopConfig {
  maxIterations: number;
  /** Prompt + completion tokens across the run; 0 means no token budget. */
  maxTokens: number;
  /** Wall clock for the whole run; 0 means no time budget. */
  maxMinutes: number;
  verifyTimeoutS: number;
  patience: number;
  onGiveUp: OnGiveUp;
  protectedGlobs: string[];
  allowTestEdits: boolean;
  /** minimatch globs the snapshot store never records nor restores. */
  snapshotExcludes: string[];
}

export const DEFAULT_PROTECTED_GLOBS = [
  '**/*.test.*',
  '**/*.spec.*',
  '**/test/**',
  '**/tests/**',
  '**/__tests__/**',
];

export const DEFAULT_SNAPSHOT_EXCLUDES = [
  '**/node_modules/**',
  'dist/**',
  'out/**',
  'build/**',
  'target/**',
  'coverage/**',
  '.venv/**',
  'venv/**',
  '**/__pycache__/**',
  '.pytest_cache/**',
  '.next/**',
  '.nuxt/**',
  '.turbo/**',
  '.cache/**',
  '.gradle/**',
];

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
};

/** Checks a config a person wrote; returns one readable sentence per problem. */
export function validateLoopConfig(c: LoopConfig): string[] {
  const problems: string[] = [];
  const positiveInt = (name: string, v: number) => {
    if (!Number.isInteger(v) || v < 1) problems.push(`${name} must be a whole number of at least 1 (got ${String(v)}).`);
  };
  const nonNegative = (name: string, v: number) => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) problems.push(`${name} must be 0 (no limit) or a positive number (got ${String(v)}).`);
  };
  positiveInt('maxIterations', c.maxIterations);
  positiveInt('patience', c.patience);
  nonNegative('maxTokens', c.maxTokens);
  nonNegative('maxMinutes', c.maxMinutes);
  if (!(c.verifyTimeoutS > 0)) problems.push(`verifyTimeoutS must be a positive number of seconds (got ${String(c.verifyTimeoutS)}).`);
  if (!['keep-best', 'restore-baseline', 'keep-last'].includes(c.onGiveUp)) {
    problems.push(`onGiveUp must be keep-best, restore-baseline or keep-last (got ${String(c.onGiveUp)}).`);
  }
  return problems;
}
