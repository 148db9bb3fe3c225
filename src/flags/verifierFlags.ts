// Flags shared by `verify` and `fix`: where to run, what to run, how to judge it.
import * as path from 'path';
import { VERIFY_SCOPES, type TscMode, type VerifyScope } from '../shared/config';
import { CommandVerifier } from '../verify/commandVerifier';
import { assertDirectory, resolveTestCommand, SetupError } from '../verify/testCommand';
import { UsageError, parseNumberFlag } from './usageError';
import type { CheckSpec } from '../verify/checkers/commandChecker';
import { CheckSpecError, parseCheckSpec } from '../verify/checkers/checkSpec';
import type { SecretFlagValues } from './secretFlags';

export interface VerifierFlagValues extends SecretFlagValues {
  cwd?: string;
  'test-cmd'?: string;
  tsc?: string;
  'timeout-s'?: string;
  junit?: string;
  check?: string[];
  'allow-suppressions'?: boolean;
}

/** `--check "CMD"` or `--check "CMD:format"` (verify/checkers/checkSpec.ts), a bad one as a usage error. */
export function parseCheckFlag(raw: string): CheckSpec {
  try {
    return parseCheckSpec(raw);
  } catch (err) {
    if (err instanceof CheckSpecError) throw new UsageError(`--check: ${err.message}`);
    throw err;
  }
}

export function checkSpecs(values: Pick<VerifierFlagValues, 'check'>): CheckSpec[] {
  return (values.check ?? []).map(parseCheckFlag);
}

export function tscMode(raw: string | undefined): TscMode {
  const mode = raw ?? 'auto';
  if (mode !== 'auto' && mode !== 'on' && mode !== 'off') throw new UsageError(`--tsc must be auto, on or off (got "${mode}").`);
  return mode;
}

/** `--verify-scope failing-first|full`: the failing tests first (the default), or the whole suite every attempt. */
export function verifyScopeFlag(raw: string | undefined): VerifyScope | undefined {
  if (raw === undefined) return undefined;
  if (!(VERIFY_SCOPES as readonly string[]).includes(raw)) throw new UsageError(`--verify-scope must be failing-first or full (got "${raw}").`);
  return raw as VerifyScope;
}

/** `withheldEnv`: variables the test command, tsc and the checkers do not inherit (the run's, from secretFlags.ts). */
/** `stateDir`: the run's state folder, where tsc keeps its build info between checks (never the workspace). */
export function buildVerifier(values: VerifierFlagValues, timeoutS: number, withheldEnv: readonly string[], onOutput?: (chunk: string) => void, stateDir?: string): { cwd: string; verifier: CommandVerifier; testCommand: string } {
  try {
    const cwd = assertDirectory(path.resolve(values.cwd ?? '.'));
    const testCommand = resolveTestCommand(cwd, values['test-cmd']);
    const verifier = new CommandVerifier({
      cwd, testCommand, tsc: tscMode(values.tsc), timeoutMs: timeoutS * 1000, junitGlob: values.junit, withheldEnv, onOutput, checks: checkSpecs(values),
      ...(stateDir ? { tscBuildInfoDir: tscStateDir(stateDir) } : {}),
    });
    return { cwd, verifier, testCommand };
  } catch (err) {
    if (err instanceof SetupError) throw new UsageError(err.message);
    throw err;
  }
}

/** Where tsc's build info lives inside a state folder (one file per project: verify/tsc.ts tscBuildInfoFile). */
export function tscStateDir(stateDir: string): string {
  return path.join(stateDir, 'tsc');
}

export function timeoutFlag(values: VerifierFlagValues, name: 'timeout-s', fallback: number): number {
  return parseNumberFlag(name, values[name], { min: 1 }) ?? fallback;
}
