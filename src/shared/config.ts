// One shape for every loop option. The CLI builds it from flags, the extension from settings;
// core/ only ever receives a plain LoopConfig object. Its defaults that name the runners' files (DEFAULT_LOOP_CONFIG,
// DEFAULT_PROTECTED_GLOBS) are assembled in session/loopDefaults.ts, where the runners' registry may be read.

export type OnGiveUp = 'keep-best' | 'restore-baseline' | 'keep-last';
export type TscMode = 'auto' | 'on' | 'off';

export interface LoopConfig {
  /**
   * How long the covered runs for the context may always take, whatever the baseline's time (5 s when absent); the
   * environment's GREENLOOP_COVERAGE_FLOOR_MS sets it, for a machine so busy that 5 s starts nothing.
   */
  coverageFloorMs?: number;
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
  /**
   * Let edits add suppression directives (`// @ts-ignore`, `eslint-disable`, `# type: ignore`, `#[allow(…)]`…) and
   * guards that hide code from a checker (`if not TYPE_CHECKING:`, `//go:build ignore`: core/edits/checkerGuards.ts);
   * refused otherwise, like an edit to a test (core/edits/suppressions.ts). Absent: false.
   */
  allowSuppressions?: boolean;
  /** package.json scripts the check commands run (`npm run lint`): their definitions are protected like test scripts. */
  checkScripts?: string[];
  /** minimatch globs the snapshot store never records nor restores. */
  snapshotExcludes: string[];
  /** Re-runs of newly failing tests before an edit is blamed for them (0: no re-run, every new failure is a regression). */
  flakyReruns: number;
  /** Consecutive escalations on the same failures and configuration after which a new run refuses to start. */
  crossRunLimit: number;
  /** Largest model answer read, in bytes (a JSON body, or a streamed answer's text); a larger one is an invalid proposal. */
  maxAnswerBytes: number;
  /**
   * Test IDs (as the verifier names them) this run is for, each failing when it starts; absent or empty: the whole
   * suite. With a focus the run is green once these pass and nothing that passed broke (core/judge/witnessCompare).
   */
  focus?: string[];
  /**
   * `failing-first`: each attempt first runs only the tests failing in the best state, and the whole suite only when
   * one of them passes (core/loop/steps/targeted.ts); `full`: the whole suite every attempt. Absent: failing-first.
   */
  verifyScope?: VerifyScope;
  /**
   * `auto`: before the first model call, the project's own fixers of the failing checkers run as attempt 0, judged like
   * any edit (core/loop/turns/autofixTurn.ts); `off`: never. Absent: auto.
   */
  autofix?: AutofixMode;
  /** Tokens the prompt's code context may take (regions, outlines, map); absent: 6000. */
  contextTokens?: number;
  /**
   * Answers a model is asked for per attempt, each judged from the same state and the best one kept
   * (core/loop/candidates/); absent or 1: one answer, as before. An agent CLI runs as this many agents, each in its
   * own copy of the workspace (core/loop/candidates/askAgents.ts).
   */
  candidates?: number;
  /**
   * With several candidates: each is judged at the same time in its own copy of the workspace (its failing tests run
   * there), and only the chosen one is applied to the workspace for the whole suite; absent: one after another in the
   * workspace, which no port, cache or database of the tests can clash over.
   */
  candidatesParallel?: boolean;
}

/** More answers than this per attempt cost more test runs than they can save. */
export const MAX_CANDIDATES = 10;

export type AutofixMode = 'auto' | 'off';
export const AUTOFIX_MODES: readonly AutofixMode[] = ['auto', 'off'];

export type VerifyScope = 'failing-first' | 'full';
export const VERIFY_SCOPES: readonly VerifyScope[] = ['failing-first', 'full'];

/** Far above any edit a model should send, far below what could exhaust memory or stall the loop. */
export const DEFAULT_MAX_ANSWER_BYTES = 2_000_000;

/** Added when the type check is part of "green": a model must not loosen the rules tsc checks against. */
export const TYPE_CHECK_PROTECTED_GLOBS = ['**/tsconfig*.json', '**/jsconfig*.json'];

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
  // Checkers' caches, rewritten by every check.
  '.mypy_cache/**',
  '.ruff_cache/**',
  '.eslintcache',
  '.next/**',
  '.nuxt/**',
  '.turbo/**',
  '.cache/**',
  '.gradle/**',
];

/** How an agent CLI attempt is bounded beside the run's budgets (CLI flags, greenloop.agent.* settings). */
export interface AgentSettings {
  /** Model requests one attempt may make through the gateway; the next is answered "stop now". */
  requestsPerAttempt: number;
  /** The agent's own time limit per attempt, in seconds. */
  timeoutS: number;
  /** The run's token budget when an agent is the actor and none is set (each request carries the conversation). */
  maxTokens: number;
}

export const DEFAULT_AGENT_SETTINGS: AgentSettings = { requestsPerAttempt: 12, timeoutS: 600, maxTokens: 2_000_000 };

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
  const count = (name: string, v: number) => {
    if (!Number.isInteger(v) || v < 0) problems.push(`${name} must be a whole number, 0 or more (got ${String(v)}).`);
  };
  count('flakyReruns', c.flakyReruns);
  count('crossRunLimit', c.crossRunLimit);
  // Smaller than this, not even a one-block answer with its explanation fits.
  if (!Number.isInteger(c.maxAnswerBytes) || c.maxAnswerBytes < 1000) problems.push(`maxAnswerBytes must be a whole number of at least 1000 (got ${String(c.maxAnswerBytes)}).`);
  nonNegative('maxTokens', c.maxTokens);
  nonNegative('maxMinutes', c.maxMinutes);
  if (!(c.verifyTimeoutS > 0)) problems.push(`verifyTimeoutS must be a positive number of seconds (got ${String(c.verifyTimeoutS)}).`);
  if (c.autofix !== undefined && !AUTOFIX_MODES.includes(c.autofix)) problems.push(`autofix must be auto or off (got ${String(c.autofix)}).`);
  if (c.contextTokens !== undefined && (!Number.isInteger(c.contextTokens) || c.contextTokens < 500)) problems.push(`contextTokens must be a whole number of at least 500 (got ${String(c.contextTokens)}).`);
  if (c.candidates !== undefined && (!Number.isInteger(c.candidates) || c.candidates < 1 || c.candidates > MAX_CANDIDATES)) problems.push(`candidates must be a whole number from 1 to ${MAX_CANDIDATES} (got ${String(c.candidates)}).`);
  if (c.verifyScope !== undefined && !VERIFY_SCOPES.includes(c.verifyScope)) problems.push(`verifyScope must be failing-first or full (got ${String(c.verifyScope)}).`);
  if (!['keep-best', 'restore-baseline', 'keep-last'].includes(c.onGiveUp)) {
    problems.push(`onGiveUp must be keep-best, restore-baseline or keep-last (got ${String(c.onGiveUp)}).`);
  }
  return problems;
}
