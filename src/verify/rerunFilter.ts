// The test command narrowed to a few tests, with the runner's own filter, for re-running tests that newly failed
// (is the edit to blame, or is the test flaky?). The narrowing itself is runners/narrow.ts; this reads what it
// needs from the workspace. A filter is only an optimization: the caller checks that the narrowed run reported the
// tests it asked for, and runs the whole command otherwise.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RunnerFormat } from '../ports/verifier';
import { narrowToTargets } from '../runners/narrow';
import type { TargetTest } from '../runners/narrow';

export interface NarrowedCommand {
  command: string;
  /** Extra environment (node_modules/.bin on PATH when an npm script was run directly). */
  env?: NodeJS.ProcessEnv;
}

/** null when the command's runner has no filter Greenloop knows, or the command is too complex to extend safely. */
export function narrowTestCommand(
  testCommand: string, cwd: string, runner: RunnerFormat | null, tests: ReadonlyArray<string | TargetTest>, files?: readonly string[],
): NarrowedCommand | null {
  const targets = tests.map((t) => (typeof t === 'string' ? { id: t } : t));
  const narrowed = narrowToTargets({ testCommand, runner, targets, scripts: packageScripts(cwd), files });
  if (!narrowed.ok) return null;
  if (narrowed.pathDirs.length === 0) return { command: narrowed.command };
  const dirs = narrowed.pathDirs.map((d) => path.join(cwd, d));
  return { command: narrowed.command, env: { ...process.env, PATH: [...dirs, process.env.PATH ?? ''].join(path.delimiter) } };
}

export function packageScripts(cwd: string): Record<string, unknown> | null {
  try {
    const scripts = JSON.parse(fs.readFileSync(path.join(cwd, 'package.json'), 'utf8'))?.scripts;
    return scripts && typeof scripts === 'object' ? scripts : null;
  } catch {
    return null;
  }
}

/** POSIX single quotes: everything literal, a quote written as '\''. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
