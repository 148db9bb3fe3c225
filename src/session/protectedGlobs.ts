// What a run may not edit, decided once for every host: every runner's tests and the files that decide how they run
// (each runner's room names its own), the editor's test tasks, what decides what a checker reports — and with the type
// check part of "green", tsconfig, since loosening it is as much a way to cheat as weakening a test.
import { TYPE_CHECK_PROTECTED_GLOBS } from '../shared/config';
import type { LoopConfig } from '../shared/config';
import { CHECKER_CONFIG_GLOBS } from '../shared/checkerConfigs';
import { runnerProtectedGlobs } from '../runners/registry';

/**
 * The default protected globs (the contract's `--protect` defaults, the greenloop.protectedGlobs setting's). package.json's
 * test scripts and the runners' sections of pyproject.toml, setup.cfg and tox.ini are protected by content instead
 * (core/edits/protectedContent.ts).
 */
export const DEFAULT_PROTECTED_GLOBS = [
  ...runnerProtectedGlobs(),
  // The editor's test tasks decide what "Fix until green" runs.
  '**/.vscode/tasks.json',
  // What decides what a linter or type checker reports: loosening it silences the checker without fixing the code.
  ...CHECKER_CONFIG_GLOBS,
];

export function protectedConfig(config: LoopConfig, typeChecks: boolean): LoopConfig {
  if (!typeChecks) return config;
  const missing = TYPE_CHECK_PROTECTED_GLOBS.filter((g) => !config.protectedGlobs.includes(g));
  return missing.length ? { ...config, protectedGlobs: [...config.protectedGlobs, ...missing] } : config;
}
