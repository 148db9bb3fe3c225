// `--pass-env NAME` (repeatable) and the run's secrets from the flags: which variables no child process inherits, and
// which values are masked. In a GitHub Actions job the platform's credentials are withheld unless --pass-env names one.
import { modelKeyVariables, runSecrets, type RunSecrets } from '../base/secretEnv';
import { UsageError } from './usageError';

export interface SecretFlagValues {
  'pass-env'?: string[];
}

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The names --pass-env gives, each checked; a value that is not a name is never repeated (it may be a pasted token). */
export function passEnvFlag(values: SecretFlagValues): string[] {
  const names = values['pass-env'] ?? [];
  for (const name of names) {
    if (!VARIABLE_NAME.test(name)) throw new UsageError('--pass-env takes the NAME of an environment variable (letters, digits and _), not its value.');
  }
  return [...new Set(names)];
}

/**
 * Once per run: the secrets of this process's environment, with --pass-env applied. The model key is never handed on
 * (an agent gets it through the gateway, or as its own with --api-key-env): naming its variable is a usage error.
 */
export function secretsFromFlags(values: SecretFlagValues, model: { key?: string; variable?: string } = {}, env: NodeJS.ProcessEnv = process.env): RunSecrets {
  const passEnv = passEnvFlag(values);
  const keyVariables = modelKeyVariables(env, model.key, model.variable);
  const clash = passEnv.find((name) => keyVariables.includes(name));
  if (clash) throw new UsageError(`--pass-env ${clash} names a variable that holds the model key, which never reaches the test command, a checker or an agent.`);
  return runSecrets({ env, apiKey: model.key, keyVariable: model.variable, passEnv });
}
