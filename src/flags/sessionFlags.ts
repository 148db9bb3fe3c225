// What `greenloop mcp` and `greenloop hook claude-stop` share: a check session on a folder, with the verifier and the
// budgets taken from the same flags as `fix` (and the same defaults), and the snapshot store opened per check.
import * as os from 'node:os';
import { CheckSession } from '../session/checkSession';
import { systemClock } from '../base/systemClock';
import { runSecrets } from '../base/secretEnv';
import { TYPE_CHECK_PROTECTED_GLOBS } from '../shared/config';
import { defaultStateDir, ensureUsableStateDir } from '../base/stateDir';
import { openWorkspace } from '../session/openWorkspace';
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
  'state-dir': { type: 'string' },
} as const;

export type SessionFlagValues = VerifierFlagValues & FixFlagValues & { 'state-dir'?: string };

/** A session on `cwd` (overriding --cwd) for the client's session `key`; bad flags and folders are one-sentence UsageErrors. */
export async function openCheckSession(values: SessionFlagValues, key: string, client: string, cwdOverride?: string): Promise<CheckSession> {
  const { redactor, withheld } = runSecrets({ env: process.env });
  const flagConfig = { ...loopConfigFromFlags(values), maxTokens: 0 };
  const { cwd, verifier } = buildVerifier({ ...values, cwd: cwdOverride ?? values.cwd }, flagConfig.verifyTimeoutS, withheld);
  const config = verifier.typeChecks ? { ...flagConfig, protectedGlobs: [...flagConfig.protectedGlobs, ...TYPE_CHECK_PROTECTED_GLOBS] } : flagConfig;
  const stateDir = values['state-dir'] ?? defaultStateDir();
  await ensureUsableStateDir(stateDir).catch((err: Error) => {
    throw new UsageError(`${err.message}; pass --state-dir with a folder you can write.`);
  });
  return new CheckSession(key, {
    cwd, stateDir, config, verifier, redactor, clock: systemClock, client,
    open: async (runId) => {
      const { snapshots, journal } = await openWorkspace({ workspace: cwd, stateDir, excludes: config.snapshotExcludes, runId }).catch((err: Error) => {
        throw new UsageError(err.message.split('\n')[0]!);
      });
      return { snapshots, journal };
    },
  });
}

/** The machine's user, for a default session key where the client gives none. */
export function defaultSessionKey(cwd: string): string {
  return `${os.userInfo().username}:${cwd}`;
}
