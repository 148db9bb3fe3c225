// Where a JavaScript/TypeScript import lands in the workspace, as Node and tsc find it: relative files with or
// without extension (`./x.js` standing for x.ts), directories through package.json `exports`/`main` then index
// files (`require('..')`), the package's own name and `#imports`, and TypeScript `paths`/`baseUrl`. A dependency
// (anything Node would find in node_modules) is no file of the workspace and resolves to nothing.
import * as path from 'node:path';
import { exports as packageExports, imports as packageImports } from 'resolve.exports';
import type { ImportRef } from './facts';
import { mapPaths, TsConfigs } from './tsconfig';
import type { WorkspaceFiles } from './workspaceFiles';
import { WorkspacePackages } from './workspacePackages';

const TS_FIRST = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const JS_FIRST = ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts'];
/** What an import of a compiled name stands for in a TypeScript project (`./money.js` → money.ts). */
const TS_SOURCE: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.jsx': ['.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };

interface PackageJson {
  name?: string;
  main?: string;
  exports?: unknown;
  imports?: unknown;
}

export class JsResolver {
  private readonly tsconfigs: TsConfigs;
  private readonly packages: WorkspacePackages;

  constructor(private readonly files: WorkspaceFiles) {
    this.tsconfigs = new TsConfigs(files);
    this.packages = new WorkspacePackages(files);
  }

  /** The workspace file `ref` names from the file `from`, or none. */
  resolve(ref: ImportRef, from: string): string[] {
    const found = this.resolveOne(ref, from);
    return found ? [found] : [];
  }

  private resolveOne(ref: ImportRef, from: string): string | null {
    const { spec } = ref;
    const dir = dirOf(from);
    const ts = /\.[cm]?tsx?$/.test(from);
    if (spec === '.' || spec === '..' || spec.startsWith('./') || spec.startsWith('../')) {
      const base = isRoot(dir, spec) ? '' : this.files.norm(path.posix.join(dir || '.', spec));
      if (base === null) return null;
      // '..', '.' and 'x/' name a folder only, as in Node.
      if (base === '' || spec === '.' || spec === '..' || spec.endsWith('/')) return this.asDir(base, ref, ts);
      return this.asFile(base, ts) ?? this.asDir(base, ref, ts);
    }
    if (spec.startsWith('/') || spec.startsWith('node:') || /^[a-z]+:/i.test(spec)) return null;
    if (spec.startsWith('#')) return this.packageImport(ref, dir, ts);
    const mapping = this.tsconfigs.forDir(dir);
    for (const target of mapping ? mapPaths(mapping, spec) : []) {
      const hit = this.asFile(target, ts) ?? this.asDir(target, ref, ts);
      if (hit) return hit;
    }
    const own = this.selfReference(ref, dir, ts) ?? this.siblingPackage(ref, ts);
    if (own) return own;
    if (mapping?.baseUrl !== undefined) {
      const target = path.posix.join(mapping.baseUrl || '.', spec);
      return this.asFile(target, ts) ?? this.asDir(target, ref, ts);
    }
    return null;
  }

  /** A file by its exact name, by the TypeScript source of a compiled name, or with an extension added. */
  private asFile(base: string, ts: boolean): string | null {
    const n = this.files.norm(base);
    if (n === null) return null;
    const ext = path.posix.extname(n);
    const sources = (TS_SOURCE[ext] ?? []).map((e) => n.slice(0, -ext.length) + e);
    const exact = ts ? [...sources, n] : [n, ...sources];
    // A declaration file (.d.ts) holds no code that runs: never where a failing test goes.
    return [...exact, ...(ts ? TS_FIRST : JS_FIRST).map((e) => n + e)].find((f) => !/\.d\.[cm]?ts$/.test(f) && this.files.isFile(f)) ?? null;
  }

  /** A folder: its package.json `exports` ('.') or `main`, then its index file. */
  private asDir(dir: string, ref: ImportRef, ts: boolean): string | null {
    const pkg = this.packageJson(dir);
    if (pkg) {
      const viaExports = this.exportTarget(pkg, dir, '.', ref, ts);
      if (viaExports) return viaExports;
      if (typeof pkg.main === 'string' && pkg.main) {
        const main = join(dir, pkg.main);
        const hit = this.asFile(main, ts) ?? this.indexOf(main, ts) ?? this.builtFrom(main);
        if (hit) return hit;
      }
    }
    return this.indexOf(dir, ts);
  }

  private indexOf(dir: string, ts: boolean): string | null {
    return this.asFile(join(dir, 'index'), ts);
  }

  /** `exports` for `subpath` ('.' or './x') under the conditions of the import's kind. */
  private exportTarget(pkg: PackageJson, dir: string, subpath: string, ref: ImportRef, ts: boolean): string | null {
    if (pkg.exports === undefined || pkg.exports === null) return null;
    let targets: string[] = [];
    try {
      targets = (packageExports(pkg, subpath, { require: ref.require === true }) as string[] | undefined) ?? [];
    } catch {
      return null; // not exported: Node refuses it too
    }
    for (const t of targets) {
      const hit = this.asFile(join(dir, t), ts) ?? this.builtFrom(join(dir, t));
      if (hit) return hit;
    }
    return null;
  }

  /** A package's entry tsc builds (dist/index.js, not in the workspace or not read): its source under rootDir. */
  private builtFrom(target: string): string | null {
    const n = this.files.norm(target);
    const mapping = n === null ? null : this.tsconfigs.forDir(dirOf(n));
    if (n === null || !mapping?.outDir || !n.startsWith(`${mapping.outDir}/`)) return null;
    const rootDir = mapping.rootDir ?? join(dirOf(mapping.outDir), 'src');
    return this.asFile(join(rootDir, n.slice(mapping.outDir.length + 1)), true);
  }

  /** `import 'my-pkg/sub'` inside my-pkg itself: the nearest package.json that bears the name. */
  private selfReference(ref: ImportRef, dir: string, ts: boolean): string | null {
    const found = this.nearestPackage(dir);
    const name = found?.pkg.name;
    if (!found || !name || (ref.spec !== name && !ref.spec.startsWith(`${name}/`))) return null;
    return this.packageEntry(found.pkg, found.pkgDir, ref.spec.slice(name.length), ref, ts);
  }

  /** `import '@acme/core/x'` of a package of the same monorepo: that package's folder, by its exports or files. */
  private siblingPackage(ref: ImportRef, ts: boolean): string | null {
    const parts = ref.spec.split('/');
    const name = ref.spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
    const pkgDir = this.packages.dirOf(name);
    return pkgDir === null ? null : this.packageEntry(this.packageJson(pkgDir) ?? {}, pkgDir, ref.spec.slice(name.length), ref, ts);
  }

  /** What `name` + `rest` ('' or '/sub') names in a package: its exports, else its main or a file by its path. */
  private packageEntry(pkg: PackageJson, pkgDir: string, rest: string, ref: ImportRef, ts: boolean): string | null {
    const subpath = rest ? `.${rest}` : '.';
    if (pkg.exports !== undefined && pkg.exports !== null) return this.exportTarget(pkg, pkgDir, subpath, ref, ts);
    if (subpath === '.') return this.asDir(pkgDir, ref, ts);
    const target = join(pkgDir, subpath);
    return this.asFile(target, ts) ?? this.asDir(target, ref, ts);
  }

  /** `#internal` through the nearest package.json's `imports` (targets inside the package only). */
  private packageImport(ref: ImportRef, dir: string, ts: boolean): string | null {
    const found = this.nearestPackage(dir);
    if (!found) return null;
    let targets: string[] = [];
    try {
      targets = (packageImports(found.pkg, ref.spec, { require: ref.require === true }) as string[] | undefined) ?? [];
    } catch {
      return null;
    }
    for (const t of targets.filter((t) => t.startsWith('./'))) {
      const hit = this.asFile(join(found.pkgDir, t), ts);
      if (hit) return hit;
    }
    return null;
  }

  private nearestPackage(dir: string): { pkg: PackageJson; pkgDir: string } | null {
    for (let d = dir; ; d = dirOf(d)) {
      const pkg = this.packageJson(d);
      if (pkg) return { pkg, pkgDir: d };
      if (d === '') return null;
    }
  }

  private packageJson(dir: string): PackageJson | null {
    const text = this.files.read(join(dir, 'package.json'));
    if (text === null) return null;
    try {
      const json = JSON.parse(text) as unknown;
      return json && typeof json === 'object' && !Array.isArray(json) ? (json as PackageJson) : null;
    } catch {
      return null;
    }
  }
}

/** '' for the workspace root, else the folder's workspace-relative path. */
function dirOf(rel: string): string {
  const d = path.posix.dirname(rel);
  return d === '.' ? '' : d;
}

function join(dir: string, rel: string): string {
  return path.posix.join(dir || '.', rel);
}

/** `require('..')` or `require('../')` from test/ names the workspace root itself, which norm() gives no name. */
function isRoot(dir: string, spec: string): boolean {
  return path.posix.normalize(path.posix.join(dir || '.', spec)).replace(/\/+$/, '') === '.';
}
