// Flags shared by `verify` and `fix`: where to run, what to run, how to judge it.
import * as path from 'path';
import type { TscMode } from '../shared/config';
import { CommandVerifier } from '../verify/commandVerifier';
import { assertDirectory, resolveTestCommand, SetupError } from '../verify/testCommand';
import { UsageError, parseNumberFlag } from './usageError';
import type { CheckSpec } from '../verify/checkers/commandChecker';
import { formatNames, parseCheckerFormat } from '../verify/checkers/readerChoice';

export const VERIFIER_FLAGS = {
  cwd: { type: 'string' },
  'test-cmd': { type: 'string' },
  tsc: { type: 'string' },
  'timeout-s': { type: 'string' },
  junit: { type: 'string' },
  /** A checker beside tsc, `CMD` or `CMD:format` (repeatable): its errors join the diagnostics. */
  check: { type: 'string', multiple: true },
  /** Edits may add `// @ts-ignore`, `eslint-disable`, `# type: ignore`… (refused otherwise). */
  'allow-suppressions': { type: 'boolean' },
} as const;

export interface VerifierFlagValues {
  cwd?: string;
  'test-cmd'?: string;
  tsc?: string;
  'timeout-s'?: string;
  junit?: string;
  check?: string[];
  'allow-suppressions'?: boolean;
}

/**
 * `--check "npx eslint --format json src"` or `--check "mypy src:mypy"`: a format is split off only when the text
 * after the last colon names one, so a command with colons of its own (`npm run lint:ci`) stays whole.
 */
export function parseCheckFlag(raw: string): CheckSpec {
  const text = raw.trim();
  if (text === '') throw new UsageError(`--check needs a command, e.g. --check "npx eslint --format json src" (formats: ${formatNames()}).`);
  const colon = text.lastIndexOf(':');
  const tail = colon > 0 ? text.slice(colon + 1).trim() : '';
  const command = text.slice(0, colon).trim();
  if (command !== '' && tail === 'auto') return { command, format: 'auto' };
  const format = command !== '' && /^[\w -]+$/.test(tail) ? parseCheckerFormat(tail) : null;
  return format ? { command, format } : { command: text };
}

export function checkSpecs(values: Pick<VerifierFlagValues, 'check'>): CheckSpec[] {
  return (values.check ?? []).map(parseCheckFlag);
}

export function tscMode(raw: string | undefined): TscMode {
  const mode = raw ?? 'auto';
  if (mode !== 'auto' && mode !== 'on' && mode !== 'off') throw new UsageError(`--tsc must be auto, on or off (got "${mode}").`);
  return mode;
}

/** `withheldEnv`: variables the test command and tsc do not inherit (the model key's). */
export function buildVerifier(values: VerifierFlagValues, timeoutS: number, withheldEnv: readonly string[], onOutput?: (chunk: string) => void): { cwd: string; verifier: CommandVerifier; testCommand: string } {
  try {
    const cwd = assertDirectory(path.resolve(values.cwd ?? '.'));
    const testCommand = resolveTestCommand(cwd, values['test-cmd']);
    const verifier = new CommandVerifier({ cwd, testCommand, tsc: tscMode(values.tsc), timeoutMs: timeoutS * 1000, junitGlob: values.junit, withheldEnv, onOutput, checks: checkSpecs(values) });
    return { cwd, verifier, testCommand };
  } catch (err) {
    if (err instanceof SetupError) throw new UsageError(err.message);
    throw err;
  }
}

export function timeoutFlag(values: VerifierFlagValues, name: 'timeout-s', fallback: number): number {
  return parseNumberFlag(name, values[name], { min: 1 }) ?? fallback;
}
