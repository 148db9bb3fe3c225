// The workspace's own type check: where its tsc lives and the command the verifier runs. (How the loop tells one
// diagnostic from another is the judge's: core/judge/diagnosticKey.ts.)
import { existsSync } from 'node:fs';
import * as path from 'node:path';

export interface TscInfo {
  /** Absolute path of the workspace's node_modules/.bin/tsc. */
  tscPath: string;
  /** Absolute path of the workspace's tsconfig.json. */
  tsconfig: string;
}

/** The workspace's own tsc and tsconfig.json, or null when either is missing (auto mode then skips the check). */
export function detectTsc(cwd: string): TscInfo | null {
  const tsconfig = path.join(cwd, 'tsconfig.json');
  if (!existsSync(tsconfig)) return null;
  const bin = path.join(cwd, 'node_modules', '.bin');
  // npm writes tsc.cmd shims on Windows; elsewhere the plain name is the executable.
  const candidates = process.platform === 'win32' ? ['tsc.cmd', 'tsc'] : ['tsc'];
  for (const name of candidates) {
    const tscPath = path.join(bin, name);
    if (existsSync(tscPath)) return { tscPath, tsconfig };
  }
  return null;
}

function quote(p: string): string {
  return `"${p.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** A shell command line; non-pretty output keeps one header per diagnostic, which is what tscParser reads best. */
export function tscCommand(info: TscInfo): string {
  const tsc = process.platform === 'win32' ? `"${info.tscPath}"` : quote(info.tscPath);
  const project = process.platform === 'win32' ? `"${info.tsconfig}"` : quote(info.tsconfig);
  return `${tsc} --noEmit --pretty false -p ${project}`;
}
