// A compiled file named by a stack trace (out/test/money.test.js) is not what the model should read or edit: its
// TypeScript source is. Found through the file's source map, else through tsconfig's outDir → rootDir.
import * as fs from 'fs';
import * as path from 'path';
import { checkReadable, normalizeRelPath } from '../edits/pathPolicy';
import type { PathPolicy } from '../edits/pathPolicy';

/** Reads at most `max` bytes of a workspace file the policy allows, or null. */
export type BoundedReader = (abs: string, max: number) => Buffer | null;

const COMPILED = /\.[cm]?js$/;
const SOURCE_MAP_URL = /\/\/[#@] sourceMappingURL=(\S+)\s*$/;
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts'];

/** The workspace-relative TypeScript source of a compiled file, or null when there is none to be found. */
export function compiledSourceOf(rel: string, policy: PathPolicy, read: BoundedReader): string | null {
  if (!COMPILED.test(rel)) return null;
  return viaSourceMap(rel, policy, read) ?? viaOutDir(rel, policy, read);
}

function viaSourceMap(rel: string, policy: PathPolicy, read: BoundedReader): string | null {
  const file = locate(policy, rel);
  if (!file) return null;
  const text = read(file, 2 * 1024 * 1024)?.toString('utf8') ?? '';
  const url = SOURCE_MAP_URL.exec(text.slice(-4096))?.[1];
  if (!url) return null;
  let map: unknown;
  let mapDir = path.posix.dirname(rel);
  try {
    const inline = /^data:application\/json;(?:charset=[\w-]+;)?base64,(.*)$/.exec(url);
    if (inline) map = JSON.parse(Buffer.from(inline[1], 'base64').toString('utf8'));
    else {
      const mapRel = path.posix.normalize(path.posix.join(mapDir, decodeURIComponent(url)));
      const mapFile = locate(policy, mapRel);
      if (!mapFile) return null;
      map = JSON.parse(read(mapFile, 8 * 1024 * 1024)?.toString('utf8') ?? '');
      mapDir = path.posix.dirname(mapRel);
    }
  } catch {
    return null;
  }
  const { sources, sourceRoot } = (map ?? {}) as { sources?: unknown; sourceRoot?: unknown };
  if (!Array.isArray(sources)) return null;
  const root = typeof sourceRoot === 'string' && !/^[a-z]+:/i.test(sourceRoot) ? sourceRoot : '';
  for (const s of sources) {
    if (typeof s !== 'string' || /^[a-z]+:/i.test(s)) continue;
    const candidate = path.posix.normalize(path.posix.join(mapDir, root, s));
    if (!candidate.startsWith('../') && checkReadable(policy, candidate).ok) return candidate;
  }
  return null;
}

/**
 * tsc writes `rootDir/x.ts` to `outDir/x.js`. Only the two fields are read (tsconfig is JSON with comments, and a
 * parser for it is not worth its bundle weight here); a commented-out line is skipped.
 */
function viaOutDir(rel: string, policy: PathPolicy, read: BoundedReader): string | null {
  const config = locate(policy, 'tsconfig.json');
  if (!config) return null;
  const text = (read(config, 256 * 1024)?.toString('utf8') ?? '').split('\n').filter((l) => !/^\s*(\/\/|\/\*|\*)/.test(l)).join('\n');
  const field = (name: string) => new RegExp(`"${name}"\\s*:\\s*"([^"]+)"`).exec(text)?.[1];
  const outDir = field('outDir');
  if (!outDir) return null;
  const out = path.posix.normalize(outDir).replace(/^\.\/|\/$/g, '');
  if (!rel.startsWith(`${out}/`)) return null;
  const rest = rel.slice(out.length + 1).replace(COMPILED, '');
  // Without rootDir tsc uses the common folder of its inputs: most often the workspace or src/.
  const roots = field('rootDir') ? [path.posix.normalize(field('rootDir')!)] : ['.', 'src'];
  for (const root of roots) {
    for (const ext of SOURCE_EXTENSIONS) {
      const candidate = path.posix.normalize(path.posix.join(root, rest + ext));
      if (checkReadable(policy, candidate).ok) return candidate;
    }
  }
  return null;
}

/**
 * Compiled output and its maps are build products the snapshots leave out, so the edit policy refuses them; they
 * are only read here for a path, never shown: a regular file inside the workspace (after links), outside .git.
 */
function locate(policy: PathPolicy, rel: string): string | null {
  const norm = normalizeRelPath(rel);
  if (!norm.ok || norm.rel.split('/').some((seg) => seg.toLowerCase() === '.git' || seg === 'node_modules')) return null;
  try {
    const root = fs.realpathSync.native(policy.root);
    const real = fs.realpathSync.native(path.join(root, ...norm.rel.split('/')));
    const inside = path.relative(root, real);
    if (!inside || inside.startsWith('..') || path.isAbsolute(inside) || !fs.statSync(real).isFile()) return null;
    return real;
  } catch {
    return null;
  }
}
