// Loads the run-time half (runtime.ts; dist/runtime.js once bundled) the first time a run, a check, a snapshot view
// or a model needs it. esbuild.js keeps this require external, so the shell bundle stays small.
import type * as Runtime from './runtime';

let loaded: typeof Runtime | undefined;

export function runtime(): typeof Runtime {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./runtime') as typeof Runtime;
  return loaded;
}
