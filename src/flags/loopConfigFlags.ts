// The loop's budgets and guards from command-line flags (shared by `fix`, `mcp` and the Claude Code hook), with
// one-sentence errors for bad input. Kept apart from the actor flags so a check session loads no actor.
import type { AutofixMode, LoopConfig, OnGiveUp } from '../shared/config';
import { AUTOFIX_MODES, validateLoopConfig } from '../shared/config';
import { DEFAULT_LOOP_CONFIG } from '../session/loopDefaults';
import { parseNumberFlag, UsageError } from './usageError';
import { scriptsNamedBy } from '../shared/checkerConfigs';
import { verifyScopeFlag } from './verifierFlags';

export interface FixFlagValues {
  actor?: string;
  'base-url'?: string;
  model?: string;
  'api-key-env'?: string;
  'no-stream'?: boolean;
  'actor-cmd'?: string;
  agent?: string;
  'agent-upstream'?: string;
  'agent-requests-per-attempt'?: string;
  'agent-timeout-s'?: string;
  'max-iterations'?: string;
  'max-tokens'?: string;
  'max-minutes'?: string;
  patience?: string;
  'verify-timeout-s'?: string;
  'on-give-up'?: string;
  'allow-test-edits'?: boolean;
  protect?: string[];
  'flaky-reruns'?: string;
  'cross-run-limit'?: string;
  'request-timeout-s'?: string;
  'max-answer-bytes'?: string;
  focus?: string[];
  /** The verifier's flags the loop's guards read too (verifierFlags.ts). */
  check?: string[];
  'allow-suppressions'?: boolean;
  /** failing-first (default) or full: see verifierFlags.verifyScopeFlag. */
  'verify-scope'?: string;
  /** auto (default): the project's own fixers first; off: never. */
  autofix?: string;
  /** Tokens the prompt's code context may take (default 6000). */
  'context-tokens'?: string;
  /** Answers per attempt, each judged, the best kept (default 1). */
  candidates?: string;
  /** Candidates judged at once, each in its own copy of the workspace. */
  'candidates-parallel'?: boolean;
}

export function loopConfigFromFlags(v: FixFlagValues): LoopConfig {
  const onGiveUp = (v['on-give-up'] ?? DEFAULT_LOOP_CONFIG.onGiveUp) as OnGiveUp;
  if (!['keep-best', 'restore-baseline', 'keep-last'].includes(onGiveUp)) {
    throw new UsageError(`--on-give-up must be keep-best, restore-baseline or keep-last (got "${onGiveUp}").`);
  }
  const config: LoopConfig = {
    ...DEFAULT_LOOP_CONFIG,
    maxIterations: parseNumberFlag('max-iterations', v['max-iterations'], { min: 1, integer: true }) ?? DEFAULT_LOOP_CONFIG.maxIterations,
    maxTokens: parseNumberFlag('max-tokens', v['max-tokens'], { min: 0, integer: true }) ?? DEFAULT_LOOP_CONFIG.maxTokens,
    maxMinutes: parseNumberFlag('max-minutes', v['max-minutes'], { min: 0 }) ?? DEFAULT_LOOP_CONFIG.maxMinutes,
    patience: parseNumberFlag('patience', v.patience, { min: 1, integer: true }) ?? DEFAULT_LOOP_CONFIG.patience,
    verifyTimeoutS: parseNumberFlag('verify-timeout-s', v['verify-timeout-s'], { min: 1 }) ?? DEFAULT_LOOP_CONFIG.verifyTimeoutS,
    onGiveUp,
    allowTestEdits: Boolean(v['allow-test-edits']),
    protectedGlobs: v.protect?.length ? [...DEFAULT_LOOP_CONFIG.protectedGlobs, ...v.protect] : DEFAULT_LOOP_CONFIG.protectedGlobs,
    flakyReruns: parseNumberFlag('flaky-reruns', v['flaky-reruns'], { min: 0, integer: true }) ?? DEFAULT_LOOP_CONFIG.flakyReruns,
    crossRunLimit: parseNumberFlag('cross-run-limit', v['cross-run-limit'], { min: 0, integer: true }) ?? DEFAULT_LOOP_CONFIG.crossRunLimit,
    maxAnswerBytes: parseNumberFlag('max-answer-bytes', v['max-answer-bytes'], { min: 1000, integer: true }) ?? DEFAULT_LOOP_CONFIG.maxAnswerBytes,
    ...(v.focus?.length ? { focus: [...new Set(v.focus)] } : {}),
    ...(v['allow-suppressions'] ? { allowSuppressions: true } : {}),
    ...(v['context-tokens'] !== undefined ? { contextTokens: parseNumberFlag('context-tokens', v['context-tokens'], { min: 500, integer: true }) } : {}),
    // Written only above 1, so a run's saved settings read as they always did.
    ...(candidatesOf(v.candidates) > 1 ? { candidates: candidatesOf(v.candidates) } : {}),
    ...(v['candidates-parallel'] ? { candidatesParallel: true } : {}),
    ...(v['verify-scope'] !== undefined ? { verifyScope: verifyScopeFlag(v['verify-scope']) } : {}),
    ...(v.autofix !== undefined ? { autofix: autofixFlag(v.autofix) } : {}),
    // `--check "npm run lint"`: the lint script's definition is protected like the test script's.
    ...(v.check?.length ? { checkScripts: scriptsNamedBy(v.check) } : {}),
  };
  const problems = validateLoopConfig(config);
  if (problems.length) throw new UsageError(problems[0]);
  return config;
}

function candidatesOf(raw: string | undefined): number {
  return parseNumberFlag('candidates', raw, { min: 1, integer: true }) ?? 1;
}

/** `--autofix auto|off`: the project's own fixers as attempt 0 (the default), or never. */
function autofixFlag(raw: string): AutofixMode {
  if (!(AUTOFIX_MODES as readonly string[]).includes(raw)) throw new UsageError(`--autofix must be auto or off (got "${raw}").`);
  return raw as AutofixMode;
}
