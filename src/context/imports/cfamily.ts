// C and C++: `#include "x.h"` is looked for beside the including file, then on the include path; `#include <x.h>` on
// the include path only, as the compiler does. The include path is what compile_commands.json (at the root or in
// build/) passes with -I, -iquote and -isystem; without one, the usual include/ folder. A header reaches its source
// too (x.h → x.c / x.cpp beside it, or the file of that name the build compiles): that is where its functions' bodies
// are.
import * as path from 'node:path';
import type { Tree } from '@vscode/tree-sitter-wasm';
import { nodes, uniq } from './facts';
import type { FileFacts, ImportRef } from './facts';
import type { WorkspaceFiles } from './workspaceFiles';
import { calledNames, declarations } from '../parse/units';

const SOURCE_EXTENSIONS = ['.c', '.cc', '.cpp', '.cxx', '.c++'];
const HEADER = /\.(?:h|hh|hpp|hxx|inl|ipp)$/;
/** Entries looked at when no compilation database lists the sources: enough for a library, not a monorepo's walk. */
const MAX_SCANNED = 3000;
const SKIP_DIRS = new Set(['build', 'node_modules', 'third_party', 'vendor', 'external', 'out', 'cmake-build-debug', 'cmake-build-release']);
const INCLUDE_FLAGS = /^-(?:I|iquote|isystem|idirafter)(.*)$/;

export function cFamilyFacts(tree: Tree): FileFacts {
  const imports: ImportRef[] = [];
  for (const node of nodes(tree.rootNode, new Set(['preproc_include']))) {
    const target = node.childForFieldName('path');
    if (!target) continue;
    if (target.type === 'string_literal') imports.push({ spec: `"${target.text.slice(1, -1)}"`, names: [] });
    else if (target.type === 'system_lib_string') imports.push({ spec: target.text, names: [] });
  }
  // What a header declares is what its includers call: its prototypes count as its names.
  const prototypes = tree.rootNode.descendantsOfType('function_declarator').map((d) => d?.childForFieldName('declarator')?.text.replace(/^.*::/s, '') ?? '');
  const defines = [...declarations(tree, 'cpp').map((d) => d.unit.name), ...prototypes].filter((n) => /^[A-Za-z_]\w*$/.test(n));
  return { imports, defines: uniq(defines), calls: calledNames(tree.rootNode, 'cpp', true) };
}

interface Build {
  includeDirs: string[];
  /** Compiled sources by file name without extension: where a header's bodies are when they are not beside it. */
  sources: Map<string, string[]>;
}

export class CFamilyResolver {
  private build: Build | null = null;

  constructor(private readonly files: WorkspaceFiles) {}

  resolve(ref: ImportRef, from: string): string[] {
    const quoted = ref.spec.startsWith('"');
    const name = ref.spec.slice(1, -1);
    const { includeDirs } = this.buildInfo();
    const dirs = quoted ? [dirOf(from), ...includeDirs] : includeDirs;
    for (const dir of dirs) {
      const file = this.files.norm(path.posix.join(dir || '.', name));
      if (file && this.files.isFile(file)) return [file, ...this.sourceOf(file)];
    }
    return [];
  }

  /** x.h → x.c / x.cpp beside it, else under a src/ sibling of its include/ folder, else the one the build compiles. */
  private sourceOf(header: string): string[] {
    if (!HEADER.test(header)) return [];
    const stem = header.replace(/\.[^./]+$/, '');
    const swapped = stem.replace(/(^|\/)include\//, '$1src/');
    for (const base of uniq([stem, swapped])) {
      for (const ext of SOURCE_EXTENSIONS) {
        const f = this.files.norm(`${base}${ext}`);
        if (f && this.files.isFile(f)) return [f];
      }
    }
    const compiled = this.buildInfo().sources.get(path.posix.basename(stem)) ?? [];
    return compiled.length === 1 && this.files.isFile(compiled[0]!) ? [compiled[0]!] : [];
  }

  private buildInfo(): Build {
    if (this.build) return this.build;
    const includeDirs: string[] = [];
    const sources = new Map<string, string[]>();
    const root = path.resolve(this.files.root);
    for (const at of ['compile_commands.json', 'build/compile_commands.json']) {
      let entries: unknown;
      try {
        entries = JSON.parse(this.files.read(at) ?? 'null');
      } catch {
        continue; // a database that does not parse gives no include path
      }
      if (!Array.isArray(entries)) continue;
      for (const e of entries as Array<{ directory?: unknown; file?: unknown; arguments?: unknown; command?: unknown }>) {
        const dir = typeof e.directory === 'string' ? e.directory : root;
        const args = Array.isArray(e.arguments) ? e.arguments.filter((a): a is string => typeof a === 'string') : typeof e.command === 'string' ? e.command.split(/\s+/) : [];
        for (let i = 0; i < args.length; i++) {
          const m = INCLUDE_FLAGS.exec(args[i]!);
          if (!m) continue;
          const value = m[1] || args[++i] || '';
          const rel = this.inside(root, path.resolve(dir, value));
          if (rel !== null) includeDirs.push(rel);
        }
        const file = typeof e.file === 'string' ? this.inside(root, path.resolve(dir, e.file)) : null;
        if (file) {
          const key = path.posix.basename(file).replace(/\.[^.]+$/, '');
          sources.set(key, uniq([...(sources.get(key) ?? []), file]));
        }
      }
      break;
    }
    // No compilation database: the conventional folder a CMake or Make project adds with -I, and the sources found
    // in the workspace's folders (a few levels down) by name.
    if (!includeDirs.length && this.files.isDir('include')) includeDirs.push('include');
    if (!sources.size) this.findSources(sources);
    this.build = { includeDirs: uniq(includeDirs), sources };
    return this.build;
  }

  private findSources(sources: Map<string, string[]>): void {
    let seen = 0;
    const walk = (dir: string, depth: number) => {
      for (const name of this.files.list(dir)) {
        if (seen >= MAX_SCANNED || name.startsWith('.') || SKIP_DIRS.has(name)) continue;
        seen++;
        const rel = dir ? `${dir}/${name}` : name;
        if (SOURCE_EXTENSIONS.some((e) => name.endsWith(e))) {
          const key = name.replace(/\.[^.]+$/, '');
          sources.set(key, [...(sources.get(key) ?? []), rel]);
        } else if (depth < 4 && !name.includes('.') && this.files.isDir(rel)) walk(rel, depth + 1);
      }
    };
    walk('', 0);
  }

  /** A path inside the workspace as a workspace-relative one ('' for the root), else null. */
  private inside(root: string, abs: string): string | null {
    const rel = path.relative(root, abs).split(path.sep).join('/');
    if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
    return rel === '' ? '' : this.files.norm(rel);
  }
}

function dirOf(rel: string): string {
  const d = path.posix.dirname(rel);
  return d === '.' ? '' : d;
}
