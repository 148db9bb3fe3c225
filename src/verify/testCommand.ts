// Finds the command that runs a workspace's tests when none was given explicitly.
import * as fs from 'fs';
import * as path from 'path';
import { suggestedTestCommand } from '../runners/registry';

export class SetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SetupError';
  }
}

/** npm's placeholder script counts as "no test script": running it can only ever fail. */
const NPM_PLACEHOLDER = /no test specified/i;

export function resolveTestCommand(cwd: string, explicit?: string): string {
  if (explicit && explicit.trim()) return explicit.trim();
  return findTestCommand(cwd).command;
}

/**
 * The workspace's own test command and where it was found: package.json's test script, else the command its runner's
 * files suggest (`pom.xml` → `mvn -B test`, see each runner's `suggestCommand`).
 */
export function findTestCommand(cwd: string): { command: string; source: string } {
  const manifest = path.join(cwd, 'package.json');
  let scripts: Record<string, unknown> | undefined;
  try {
    scripts = JSON.parse(fs.readFileSync(manifest, 'utf8')).scripts;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new SetupError(`Could not read ${manifest}: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  const test = scripts?.test;
  if (typeof test === 'string' && test.trim() && !NPM_PLACEHOLDER.test(test)) return { command: 'npm test', source: 'package.json "test" script' };
  const suggested = suggestedTestCommand(cwd);
  if (suggested) return { command: suggested.command, source: `${suggested.runner}'s command, from ${suggested.because}` };
  throw new SetupError(
    `No test command for ${cwd}: pass --test-cmd "<command>" or add a "test" script to its package.json.`,
  );
}

export function assertDirectory(cwd: string): string {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(cwd);
  } catch {
    throw new SetupError(`The folder ${cwd} does not exist.`);
  }
  if (!stat.isDirectory()) throw new SetupError(`${cwd} is not a folder.`);
  return fs.realpathSync(cwd);
}
