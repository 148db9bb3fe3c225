// What a run may not edit, decided once for every host: with the type check part of "green", loosening tsconfig is
// as much a way to cheat as weakening a test.
import { TYPE_CHECK_PROTECTED_GLOBS } from '../shared/config';
import type { LoopConfig } from '../shared/config';

export function protectedConfig(config: LoopConfig, typeChecks: boolean): LoopConfig {
  if (!typeChecks) return config;
  const missing = TYPE_CHECK_PROTECTED_GLOBS.filter((g) => !config.protectedGlobs.includes(g));
  return missing.length ? { ...config, protectedGlobs: [...config.protectedGlobs, ...missing] } : config;
}
