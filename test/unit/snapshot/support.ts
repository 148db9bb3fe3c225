// Shared helpers for the snapshot tests: real temp folders, real git, byte-level fingerprints.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface TempDirs {
  make(prefix: string): string;
  cleanup(): void;
}

export function tempDirs(): TempDirs {
  const made: string[] = [];
  return {
    make(prefix: string) {
      const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `gl-${prefix}-`)));
      made.push(d);
      return d;
    },
    cleanup() {
      for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
    },
  };
}

/** git as a user would run it in `cwd`, with a clean identity and none of the caller's GIT_* variables. */
export function git(cwd: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}): string {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  Object.assign(env, {
    GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com',
    GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com',
    GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null',
  }, extraEnv);
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export function write(root: string, rel: string, content: string | Buffer, mode?: number): void {
  const p = path.join(root, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, content);
  if (mode !== undefined) fs.chmodSync(p, mode);
}

/**
 * Every entry under `root` with its type, permission bits and bytes (or link target). Two folders with equal
 * fingerprints hold the same files byte for byte. `skip` names top-level entries to leave out.
 */
export function fingerprint(root: string, skip: string[] = []): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    const abs = path.join(root, rel);
    for (const name of fs.readdirSync(abs).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      if (!rel && skip.includes(name)) continue;
      const st = fs.lstatSync(path.join(root, r));
      const mode = (st.mode & 0o777).toString(8);
      if (st.isSymbolicLink()) out.set(r, `link ${fs.readlinkSync(path.join(root, r))}`);
      else if (st.isDirectory()) {
        out.set(r, `dir ${mode}`);
        walk(r);
      } else {
        const h = createHash('sha256').update(fs.readFileSync(path.join(root, r))).digest('hex');
        out.set(r, `file ${mode} ${h}`);
      }
    }
  };
  walk('');
  return out;
}

/** Human-readable differences between two fingerprints (empty when equal). */
export function fingerprintDiff(a: Map<string, string>, b: Map<string, string>): string[] {
  const diffs: string[] = [];
  for (const [k, v] of a) if (b.get(k) !== v) diffs.push(`${k}: ${v} -> ${b.get(k) ?? 'missing'}`);
  for (const k of b.keys()) if (!a.has(k)) diffs.push(`${k}: missing -> ${b.get(k)}`);
  return diffs;
}

/** Runs fn with some environment variables set, restoring them afterwards. */
export async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved: Record<string, string | undefined> = {};
  for (const k of Object.keys(vars)) {
    saved[k] = process.env[k];
    process.env[k] = vars[k];
  }
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
