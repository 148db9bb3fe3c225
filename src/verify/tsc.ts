// The workspace's own type check: where its tsc lives, the command the verifier runs, and a diagnostic identity
// that survives edits elsewhere in the file (line numbers shift whenever the model adds or removes lines).
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { Diagnostic } from '../ports/verifier';

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

function normalizePath(p: string, cwd?: string): string {
  let out = p.replace(/\\/g, '/');
  if (cwd) {
    const root = cwd.replace(/\\/g, '/').replace(/\/+$/, '') + '/';
    out = out.split(root).join('');
  }
  return out.replace(/^\.\//, '');
}

/**
 * Identity of a diagnostic for progress/regression comparisons: file + code + message, never line or column.
 * Whitespace is collapsed and the workspace root is cut from paths (given cwd), so the same error reported
 * from another checkout or after a re-wrap compares equal.
 */
export function diagnosticKey(d: Diagnostic, cwd?: string): string {
  const file = normalizePath(d.file, cwd);
  const message = normalizePath(d.message, cwd).replace(/\s+/g, ' ').trim();
  return `${file}|${d.code}|${message}`;
}
