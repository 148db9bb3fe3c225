// TypeScript's `paths` and `baseUrl` for a file, as tsc finds them: the nearest tsconfig.json (or jsconfig.json) up
// from the file, with its `extends` chain inside the workspace (a config from a package in node_modules is not read).
import * as path from 'node:path';
// The ESM build: the UMD one (package main) loads its parts by require() calls a bundler cannot follow.
import { parse } from 'jsonc-parser/lib/esm/main.js';
import type { WorkspaceFiles } from './workspaceFiles';

export interface PathMapping {
  /** Workspace-relative folder bare imports resolve from (`baseUrl`), if set. */
  baseUrl?: string;
  /** Pattern → workspace-relative targets, `*` kept. */
  paths: Array<{ pattern: string; targets: string[] }>;
  /** Where tsc writes (`outDir`) what it compiles from (`rootDir`), workspace-relative. */
  outDir?: string;
  rootDir?: string;
}

interface RawCompilerOptions {
  baseUrl?: string;
  paths?: Record<string, string[]>;
  outDir?: string;
  rootDir?: string;
}

export class TsConfigs {
  private readonly byDir = new Map<string, PathMapping | null>();

  constructor(private readonly files: WorkspaceFiles) {}

  /** The mapping that applies to a file in `dir` (workspace-relative), or null when no config is found. */
  forDir(dir: string): PathMapping | null {
    const key = dir === '.' ? '' : dir;
    if (this.byDir.has(key)) return this.byDir.get(key)!;
    let found: PathMapping | null = null;
    for (const name of ['tsconfig.json', 'jsconfig.json']) {
      const rel = key ? `${key}/${name}` : name;
      if (this.files.isFile(rel)) {
        found = this.load(rel, new Set());
        break;
      }
    }
    if (found === null && key !== '') found = this.forDir(parentDir(key));
    this.byDir.set(key, found);
    return found;
  }

  /** One config and what it extends; paths and baseUrl are relative to the config that sets them. */
  private load(rel: string, seen: Set<string>): PathMapping {
    const out: PathMapping = { paths: [] };
    if (seen.has(rel)) return out;
    seen.add(rel);
    const json = parse(this.files.read(rel) ?? '', [], { allowTrailingComma: true }) as { extends?: string | string[]; compilerOptions?: RawCompilerOptions } | undefined;
    const dir = path.posix.dirname(rel);
    const bases = typeof json?.extends === 'string' ? [json.extends] : Array.isArray(json?.extends) ? json.extends : [];
    for (const base of bases) {
      if (typeof base !== 'string' || !base.startsWith('.')) continue;
      const baseRel = this.files.norm(path.posix.join(dir, base));
      const file = baseRel && [baseRel, `${baseRel}.json`].find((f) => this.files.isFile(f));
      if (!file) continue;
      const inherited = this.load(file, seen);
      if (inherited.baseUrl !== undefined) out.baseUrl = inherited.baseUrl;
      if (inherited.paths.length) out.paths = inherited.paths;
      if (inherited.outDir !== undefined) out.outDir = inherited.outDir;
      if (inherited.rootDir !== undefined) out.rootDir = inherited.rootDir;
    }
    const options = json?.compilerOptions ?? {};
    if (typeof options.baseUrl === 'string') out.baseUrl = this.files.norm(path.posix.join(dir, options.baseUrl)) ?? '';
    for (const key of ['outDir', 'rootDir'] as const) {
      if (typeof options[key] === 'string') out[key] = this.files.norm(path.posix.join(dir, options[key])) ?? '';
    }
    if (options.paths && typeof options.paths === 'object') {
      const from = typeof options.baseUrl === 'string' ? out.baseUrl ?? '' : dir === '.' ? '' : dir;
      out.paths = Object.entries(options.paths)
        .filter(([, targets]) => Array.isArray(targets))
        .map(([pattern, targets]) => ({ pattern, targets: targets.filter((t) => typeof t === 'string').map((t) => path.posix.join(from || '.', t)) }));
    }
    return out;
  }
}

/** The workspace-relative candidates `paths` gives for a bare specifier: exact patterns, then the longest prefix. */
export function mapPaths(mapping: PathMapping, spec: string): string[] {
  const exact = mapping.paths.find((p) => !p.pattern.includes('*') && p.pattern === spec);
  if (exact) return exact.targets;
  let best: { targets: string[]; star: string; prefix: number } | null = null;
  for (const { pattern, targets } of mapping.paths) {
    const star = pattern.indexOf('*');
    if (star < 0) continue;
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    if (spec.length < prefix.length + suffix.length || !spec.startsWith(prefix) || !spec.endsWith(suffix)) continue;
    if (best && best.prefix >= prefix.length) continue;
    best = { targets, star: spec.slice(prefix.length, spec.length - suffix.length), prefix: prefix.length };
  }
  return best ? best.targets.map((t) => t.replace('*', best!.star)) : [];
}

function parentDir(dir: string): string {
  const up = path.posix.dirname(dir);
  return up === '.' ? '' : up;
}
