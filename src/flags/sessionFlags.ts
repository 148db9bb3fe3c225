// What `greenloop mcp` and `greenloop hook claude-stop` share: a check session on a folder, with the verifier and the
// budgets taken from the same flags as `fix` (and the same defaults). The session itself opens the store per check.
import * as os from 'node:os';
import { openCheckSession, type CheckSession } from '../session/checkSession';
import { RunNotStarted } from '../session/runNotStarted';
import { secretsFromFlags } from './secretFlags';
import { defaultStateDir } from '../base/stateDir';
import { loopConfigFromFlags, type FixFlagValues } from './loopConfigFlags';
import { buildVerifier, VERIFIER_FLAGS, type VerifierFlagValues } from './verifierFlags';
import { UsageError } from './usageError';

export const SESSION_FLAGS = {
  ...VERIFIER_FLAGS,
  'max-iterations': { type: 'string' },
  'max-minutes': { type: 'string' },
  patience: { type: 'string' },
  'verify-timeout-s': { type: 'string' },
  'allow-test-edits': { type: 'boolean' },
  protect: { type: 'string', multiple: true },
  'flaky-reruns': { type: 'string' },
  'verify-scope': { type: 'string' },
  'context-tokens': { type: 'string' },
  'state-dir': { type: 'string' },
} as const;

export type SessionFlagValues = VerifierFlagValues & FixFlagValues & { 'state-dir'?: string };

/** A session on `cwd` (overriding --cwd) for the client's session `key`; bad flags and folders are one-sentence UsageErrors. */
export async function checkSessionFromFlags(values: SessionFlagValues, key: string, client: string, cwdOverride?: string): Promise<CheckSession> {
  const { redactor, withheld } = secretsFromFlags(values);
  const config = loopConfigFromFlags(values);
  const stateDir = values['state-dir'] ?? defaultStateDir();
  const { cwd, verifier } = buildVerifier({ ...values, cwd: cwdOverride ?? values.cwd }, config.verifyTimeoutS, withheld, undefined, stateDir);
  try {
    return await openCheckSession({ key, client, cwd, stateDir, verifier, typeChecks: verifier.typeChecks, config, redactor });
  } catch (err) {
    if (err instanceof RunNotStarted && err.why === 'state-dir') throw new UsageError(`${err.message}; pass --state-dir with a folder you can write.`);
    throw err;
  }
}

/** The machine's user, for a default session key where the client gives none. */
export function defaultSessionKey(cwd: string): string {
  return `${os.userInfo().username}:${cwd}`;
}
