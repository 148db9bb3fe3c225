// A saved run is read back from disk to resume it; a file edited by hand, cut short or written by something else
// must be refused in one sentence before the engine trusts any of it, not fail deep inside with a TypeError.
import type { RunState } from '../ports/runState';

type Check = (v: unknown) => boolean;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str: Check = (v) => typeof v === 'string';
const num: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const bool: Check = (v) => typeof v === 'boolean';
const arrayOf = (item: Check): Check => (v) => Array.isArray(v) && v.every(item);
const optional = (check: Check): Check => (v) => v === undefined || v === null || check(v);
const shape = (fields: Record<string, Check>): Check => (v) => isObject(v) && Object.entries(fields).every(([k, c]) => c(v[k]));

const witness = shape({ failing: arrayOf(str), diagnostics: Array.isArray, green: bool, loadError: bool, signature: str });
const stateRef = shape({ snapshot: str, tree: str, witness });

/** The fields the engine reads when it resumes a run (fields newer versions added are upgraded, not required). */
const SAVED_RUN: Record<string, Check> = {
  runId: str,
  cwd: str,
  startedAt: num,
  elapsedBeforeMs: num,
  config: shape({ protectedGlobs: optional(arrayOf(str)), snapshotExcludes: optional(arrayOf(str)), patience: optional(num), maxIterations: optional(num) }),
  limits: shape({ maxIterations: num, maxTokens: num, maxMinutes: num }),
  grants: arrayOf(isObject),
  baseline: stateRef,
  floor: optional(stateRef),
  best: stateRef,
  current: stateRef,
  iterations: arrayOf(shape({ n: num, failing: arrayOf(str), files: arrayOf(str) })),
  tokens: shape({ prompt: num, completion: num }),
  llmCalls: num,
  consecutiveNoProgress: num,
  hints: arrayOf(str),
  warnings: arrayOf(str),
};

/** The first field that is missing or of the wrong kind, or null when the value can be resumed. */
export function savedRunProblem(value: unknown): string | null {
  if (!isObject(value)) return 'it is not a JSON object';
  for (const [field, check] of Object.entries(SAVED_RUN)) {
    if (!check(value[field])) return `"${field}" is ${value[field] === undefined ? 'missing' : 'not what a saved run holds'}`;
  }
  return null;
}

export function asSavedRun(value: unknown, runId: string): RunState {
  const problem = savedRunProblem(value);
  if (problem) throw new Error(`The saved state of run ${runId} is not a Greenloop run (${problem}), so it cannot be resumed; start a new run instead.`);
  return value as RunState;
}
