// The workspace's own type check: where its tsc lives and the command the verifier runs. (How the loop tells one
// diagnostic from another is the judge's: core/judge/diagnosticKey.ts.)
import { createHash } from 'node:crypto';
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

export interface TscRunOptions {
  /**
   * A folder outside the workspace (the run's state folder) where tsc keeps its build info between checks: each check
   * after the first re-checks only what changed. Unset: a whole check every time. The command line wins over the
   * project's own `incremental`/`tsBuildInfoFile`, so nothing is written into the workspace either way.
   */
  buildInfoDir?: string;
  /** Print the files tsc checked (`--listFiles`), so the witness knows what it covered; see splitListedFiles. */
  listFiles?: boolean;
}

/** A shell command line; non-pretty output keeps one header per diagnostic, which is what tscParser reads best. */
export function tscCommand(info: TscInfo, opts: TscRunOptions = {}): string {
  const q = (p: string) => (process.platform === 'win32' ? `"${p}"` : quote(p));
  const incremental = opts.buildInfoDir ? ` --incremental --tsBuildInfoFile ${q(tscBuildInfoFile(opts.buildInfoDir, info.tsconfig))}` : '';
  const list = opts.listFiles ? ' --listFiles' : '';
  return `${q(info.tscPath)} --noEmit --pretty false -p ${q(info.tsconfig)}${incremental}${list}`;
}

/**
 * `--listFiles` output split into the workspace's files tsc checked (sorted, relative; libraries and node_modules
 * left out) and the rest of the output (its diagnostics), which is what people and the signature see.
 */
export function splitListedFiles(output: string, cwd: string): { files: string[]; rest: string } {
  const root = path.resolve(cwd);
  const files = new Set<string>();
  const rest: string[] = [];
  for (const line of output.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed !== '' && path.isAbsolute(trimmed) && !/\(\d+,\d+\): /.test(trimmed) && /\.[cm]?[jt]sx?$|\.json$/.test(trimmed)) {
      const rel = path.relative(root, trimmed);
      if (!rel.startsWith('..') && !path.isAbsolute(rel) && !rel.split(path.sep).includes('node_modules')) files.add(rel.split(path.sep).join('/'));
      continue;
    }
    rest.push(line);
  }
  return { files: [...files].sort(), rest: rest.join('\n') };
}

/** One build-info file per project, so two workspaces sharing a state folder never read each other's. */
export function tscBuildInfoFile(dir: string, tsconfig: string): string {
  return path.join(dir, `tsc-${createHash('sha256').update(path.resolve(tsconfig)).digest('hex').slice(0, 16)}.tsbuildinfo`);
}
