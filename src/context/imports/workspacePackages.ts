// The packages of a JavaScript monorepo by name (npm/yarn `workspaces`, pnpm-workspace.yaml): `import '@acme/core'`
// from a sibling package runs that package's own code, which Node reaches through a node_modules link.
import * as path from 'node:path';
import { load } from 'js-yaml';
import { minimatch } from 'minimatch';
import type { WorkspaceFiles } from './workspaceFiles';

/** Package folders searched at most: a glob over a huge tree is not worth a walk. */
const MAX_FOLDERS = 2000;

export class WorkspacePackages {
  private byName: Map<string, string> | null = null;

  constructor(private readonly files: WorkspaceFiles) {}

  /** The workspace-relative folder of the monorepo package named `name`, or null. */
  dirOf(name: string): string | null {
    this.byName ??= this.scan();
    return this.byName.get(name) ?? null;
  }

  private scan(): Map<string, string> {
    const out = new Map<string, string>();
    const patterns = this.patterns();
    if (!patterns.length) return out;
    // Folders up to the patterns' depth, matched as npm matches them.
    const depth = Math.max(...patterns.map((p) => (p.includes('**') ? 4 : p.split('/').length)));
    const folders: string[] = [];
    const walk = (dir: string, level: number) => {
      if (level > depth || folders.length >= MAX_FOLDERS) return;
      for (const name of this.files.list(dir)) {
        if (name === 'node_modules' || name.startsWith('.')) continue;
        const rel = dir ? `${dir}/${name}` : name;
        if (!this.files.isDir(rel)) continue;
        folders.push(rel);
        walk(rel, level + 1);
      }
    };
    walk('', 1);
    for (const dir of folders) {
      if (!patterns.some((p) => minimatch(dir, p.replace(/\/+$/, '')))) continue;
      try {
        const pkg = JSON.parse(this.files.read(`${dir}/package.json`) ?? 'null') as { name?: unknown } | null;
        if (typeof pkg?.name === 'string' && !out.has(pkg.name)) out.set(pkg.name, dir);
      } catch {
        // a package.json that does not parse names no package
      }
    }
    return out;
  }

  private patterns(): string[] {
    const found: unknown[] = [];
    try {
      const root = JSON.parse(this.files.read('package.json') ?? 'null') as { workspaces?: unknown } | null;
      const ws = root?.workspaces;
      if (Array.isArray(ws)) found.push(...ws);
      else if (ws && typeof ws === 'object' && Array.isArray((ws as { packages?: unknown }).packages)) found.push(...(ws as { packages: unknown[] }).packages);
    } catch {
      // no usable package.json: no npm workspaces
    }
    try {
      const pnpm = load(this.files.read('pnpm-workspace.yaml') ?? '') as { packages?: unknown } | null;
      if (Array.isArray(pnpm?.packages)) found.push(...pnpm.packages);
    } catch {
      // a pnpm-workspace.yaml that does not parse names no packages
    }
    return found.filter((p): p is string => typeof p === 'string' && !p.startsWith('!')).map((p) => path.posix.normalize(p).replace(/^\.\//, ''));
  }
}
