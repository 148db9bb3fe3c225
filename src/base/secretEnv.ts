// Which environment values are secrets, and which variables hold the model key: the key never reaches the test
// command or an agent (unless the agent is given it as its own), and every secret value is masked in what we write.
import { createRedactor, MIN_SECRET_LENGTH } from './redact';
import type { Redactor } from './redact';

/** Greenloop's documented variable for the model key (README, demo): never handed on, whatever else is configured. */
export const GREENLOOP_KEY_VARIABLE = 'GREENLOOP_API_KEY';

/** *_KEY, *_API_KEY, *_TOKEN, *_SECRET, *PASSWORD*, *_CREDENTIALS, … in any case. */
const CREDENTIAL_NAME = /(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWD|PASSPHRASE|CREDENTIALS?|AUTH)(?:_|$)|PASSWORD|SECRET/i;
/** A path names where a secret is kept (SSH_AUTH_SOCK, GOOGLE_APPLICATION_CREDENTIALS); it is not one. */
const PATH_VALUE = /^(?:\/|~\/|\.{1,2}\/|[A-Za-z]:\\)/;

export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME.test(name);
}

/** The values of credential-like variables, long enough to be secrets. */
export function credentialValues(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env).flatMap(([name, value]) =>
    value && value.length >= MIN_SECRET_LENGTH && isCredentialName(name) && !PATH_VALUE.test(value) ? [value] : []);
}

/** The variables that hold the model key: Greenloop's own, the one named for it, and any other with the same value. */
export function modelKeyVariables(env: NodeJS.ProcessEnv, key?: string, named?: string): string[] {
  const names = new Set([GREENLOOP_KEY_VARIABLE]);
  if (named) names.add(named);
  if (key) for (const [name, value] of Object.entries(env)) if (value === key) names.add(name);
  return [...names];
}

/** A copy of `env` without `names` (compared without case on Windows, where the environment is caseless). */
export function withoutVariables(env: NodeJS.ProcessEnv, names: readonly string[]): NodeJS.ProcessEnv {
  if (names.length === 0) return env;
  const fold = (s: string) => (process.platform === 'win32' ? s.toUpperCase() : s);
  const drop = new Set(names.map(fold));
  return Object.fromEntries(Object.entries(env).filter(([name]) => !drop.has(fold(name))));
}

export interface RunSecrets {
  /** Masks the key and every credential-like value of the environment. */
  redactor: Redactor;
  /** Variables removed from the environment of the test command (and of an agent, but for its own). */
  withheld: string[];
}

/**
 * Built once per run. `env`: the environment children would inherit (a test task's own variables included);
 * `apiKey`: the model key however it was configured; `keyVariable`: the variable it was read from, if any.
 */
export function runSecrets(opts: { env: NodeJS.ProcessEnv; apiKey?: string; keyVariable?: string }): RunSecrets {
  const withheld = modelKeyVariables(opts.env, opts.apiKey, opts.keyVariable);
  const keys = withheld.map((name) => opts.env[name]);
  return { redactor: createRedactor([opts.apiKey, ...keys, ...credentialValues(opts.env)]), withheld };
}
