// Which environment values are secrets, and which variables no child process inherits: the model key never reaches the
// test command, a checker or an agent (unless the agent is given it as its own); in a GitHub Actions job neither do the
// platform's credentials (unless --pass-env names one); every secret value is masked in what we write.
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

/**
 * The CI platform's credentials. In a GitHub Actions job (GITHUB_ACTIONS=true) the code under test is code a model
 * wrote, and a workflow commonly sets `GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}` for the whole job.
 */
export const PLATFORM_CREDENTIALS = ['GITHUB_TOKEN', 'GH_TOKEN', 'ACTIONS_RUNTIME_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_URL'] as const;
/** The ones that are tokens (the request URL is not): another variable holding one of these values is one too. */
const PLATFORM_TOKENS = ['GITHUB_TOKEN', 'GH_TOKEN', 'ACTIONS_RUNTIME_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN'];

export function isActionsJob(env: NodeJS.ProcessEnv): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/**
 * In an Actions job: the platform's credential variables, and every other variable whose value is one of their tokens
 * or one of `tokens` (the action's github-token input). Outside a job: none.
 */
export function platformCredentialVariables(env: NodeJS.ProcessEnv, tokens: ReadonlyArray<string | undefined> = []): string[] {
  if (!isActionsJob(env)) return [];
  const values = new Set([...PLATFORM_TOKENS.map((name) => env[name]), ...tokens].filter((v): v is string => Boolean(v && v.length >= MIN_SECRET_LENGTH)));
  const names = new Set<string>(PLATFORM_CREDENTIALS);
  for (const [name, value] of Object.entries(env)) if (value && values.has(value)) names.add(name);
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
  /** Masks the key, the platform's credentials and every credential-like value of the environment. */
  redactor: Redactor;
  /** Variables removed from the environment of every child: the test command, tsc, the checkers and an agent (but for its own). */
  withheld: string[];
}

/**
 * Built once per run. `env`: the environment children would inherit (a test task's own variables included);
 * `apiKey`: the model key however it was configured; `keyVariable`: the variable it was read from, if any;
 * `passEnv`: platform credentials the person hands on anyway (--pass-env; never the model key's variables).
 */
export function runSecrets(opts: { env: NodeJS.ProcessEnv; apiKey?: string; keyVariable?: string; passEnv?: readonly string[] }): RunSecrets {
  const modelKey = modelKeyVariables(opts.env, opts.apiKey, opts.keyVariable);
  const platform = platformCredentialVariables(opts.env);
  const passed = new Set(opts.passEnv ?? []);
  const withheld = [...new Set([...modelKey, ...platform.filter((name) => !passed.has(name))])];
  // Masked even when handed on: a value a child may read is still a secret in what Greenloop writes.
  const values = [...modelKey, ...platform].map((name) => opts.env[name]);
  return { redactor: createRedactor([opts.apiKey, ...values, ...credentialValues(opts.env)]), withheld };
}

/**
 * The environment a child process gets: `env` without `withheld` (the run's list from runSecrets), or, where a caller
 * has none, without the model key's variable and the platform's credentials.
 */
export function childEnvironment(env: NodeJS.ProcessEnv, withheld?: readonly string[]): NodeJS.ProcessEnv {
  return withoutVariables(env, withheld ?? [GREENLOOP_KEY_VARIABLE, ...platformCredentialVariables(env)]);
}
