// What the autofix tests share (fixAutofix.test.ts, fixAutofixJudged.test.ts): a checks project with a real fixer's
// tool in reach, and whether that tool is installed here.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fixHarness } from './fixHarness';
import type { FixHarness } from './fixHarness';
import { needToolchain, toolchainOf } from './toolchains';

export const CACHE = process.env.GREENLOOP_CHECKERS_CACHE ?? path.join(os.homedir(), '.cache', 'greenloop-checkers');
export const ESLINT_CHECK = 'node_modules/.bin/eslint --format json src';

export interface Family {
  name: string;
  needs: { npm: string } | { program: string };
  files: Record<string, string>;
  check: string;
  /** The file the fixer rewrites, and what it holds afterwards. */
  fixed: { file: string; text: string };
  /** A word of the fixer command as the report shows it. */
  command: RegExp;
  prepare?: string[];
  /** The checker format whose reader must exist for the check to be read at all (RuboCop's JSON). */
  reader?: string;
}

/** Installs the tool a family needs where it is missing; a tool that cannot be had fails the test by name. */
export function ensureInstalled(needs: Family['needs']): void {
  needToolchain(toolchainOf(needs));
}

export async function project(family: Pick<Family, 'files' | 'needs' | 'prepare'>): Promise<FixHarness> {
  const h = await fixHarness('checks');
  for (const [rel, text] of Object.entries(family.files)) h.write(rel, text);
  if ('npm' in family.needs) fs.symlinkSync(path.join(CACHE, 'node_modules'), path.join(h.project, 'node_modules'));
  if (family.prepare) execFileSync(family.prepare[0], family.prepare.slice(1), { cwd: h.project, stdio: 'pipe' });
  return h;
}

export type Iteration = { n: number; verdict: string; actor?: string; rolledBack: boolean; note: string; commands?: Array<{ tool: string; command: string; ms: number }> };
