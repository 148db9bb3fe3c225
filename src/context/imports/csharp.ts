// C#: `using Ledger.Core;` reaches the files that declare `namespace Ledger.Core` and one of the types the file names
// (a namespace is often a whole project; the types used are what its code calls); the file's own namespace and its
// parents count as used without a `using`. Where a .csproj holds the file, only its own folder and the projects its
// <ProjectReference>s name are looked in, as the compiler sees them.
import * as path from 'node:path';
import type { Tree } from '@vscode/tree-sitter-wasm';
import { nodes, uniq } from './facts';
import type { FileFacts, ImportRef } from './facts';
import type { WorkspaceFiles } from './workspaceFiles';
import { calledNames, declarations } from '../parse/units';

/** .cs files indexed at most: past that, a namespace is found among the first ones only. */
const MAX_FILES = 3000;
const SKIP = new Set(['bin', 'obj', 'node_modules', 'packages', 'TestResults']);

export function csharpFacts(tree: Tree): FileFacts {
  const namespaces: string[] = [];
  const types = new Set<string>();
  for (const node of nodes(tree.rootNode, new Set(['using_directive', 'namespace_declaration', 'file_scoped_namespace_declaration', 'identifier']))) {
    if (node.type === 'using_directive') {
      const target = node.namedChildren.find((c) => c?.type === 'qualified_name' || c?.type === 'identifier');
      // `using static A.B.C;` names a type: its namespace is A.B.
      const name = target?.text.replace(/\s+/g, '') ?? '';
      const isStatic = /^using\s+static\b/.test(node.text);
      if (name) namespaces.push(isStatic ? name.slice(0, name.lastIndexOf('.')) : name);
      if (isStatic) types.add(name.slice(name.lastIndexOf('.') + 1));
    } else if (node.type !== 'identifier') {
      // The file's own namespace and every one around it are in scope.
      const own = node.childForFieldName('name')?.text.replace(/\s+/g, '') ?? '';
      const parts = own.split('.');
      for (let n = parts.length; n > 0; n--) namespaces.push(parts.slice(0, n).join('.'));
    } else if (/^[A-Z]/.test(node.text) && node.parent?.type !== 'using_directive' && node.parent?.type !== 'qualified_name') types.add(node.text);
  }
  // One edge per namespace and type: a file reached is named by the types it declares, not by all the test uses.
  const imports: ImportRef[] = uniq(namespaces).flatMap((ns) => [...types].map((t) => ({ spec: ns, names: [t] })));
  const defines = declarations(tree, 'csharp').map((d) => d.unit.name).filter(Boolean);
  return { imports, defines: uniq(defines), calls: calledNames(tree.rootNode, 'csharp', true) };
}

interface CsFile {
  path: string;
  namespaces: string[];
  types: string[];
}

export class CSharpResolver {
  private index: CsFile[] | null = null;
  private namespaces: Map<string, CsFile[]> | null = null;
  private readonly projects = new Map<string, string[] | null>();

  constructor(private readonly files: WorkspaceFiles) {}

  resolve(ref: ImportRef, from: string): string[] {
    const visible = this.visibleDirs(from);
    const wanted = new Set(ref.names);
    return (this.byNamespace().get(ref.spec) ?? [])
      .filter((f) => f.path !== from && f.types.some((t) => wanted.has(t)))
      .filter((f) => !visible || visible.some((d) => d === '' || f.path.startsWith(`${d}/`)))
      .map((f) => f.path);
  }

  /** The folders of the file's project and of the projects it references; null without a .csproj. */
  private visibleDirs(from: string): string[] | null {
    const project = this.projectOf(dirOf(from));
    if (!project) return null;
    const text = this.files.read(project) ?? '';
    const dir = dirOf(project);
    const refs = [...text.matchAll(/<ProjectReference\s+Include\s*=\s*"([^"]+)"/g)].map((m) => this.files.norm(path.posix.join(dir || '.', m[1]!.replace(/\\/g, '/'))));
    return uniq([dir, ...refs.filter((r): r is string => r !== null).map(dirOf)]);
  }

  /** The nearest .csproj at or above `dir`. */
  private projectOf(dir: string): string | null {
    const known = this.projects.get(dir);
    if (known !== undefined) return known?.[0] ?? null;
    const here = this.files.list(dir).find((n) => n.endsWith('.csproj'));
    const found = here ? (dir ? `${dir}/${here}` : here) : dir ? this.projectOf(dirOf(dir)) : null;
    this.projects.set(dir, found ? [found] : null);
    return found;
  }

  private byNamespace(): Map<string, CsFile[]> {
    if (this.namespaces) return this.namespaces;
    const map = new Map<string, CsFile[]>();
    for (const f of this.files_()) for (const ns of f.namespaces) map.set(ns, [...(map.get(ns) ?? []), f]);
    this.namespaces = map;
    return map;
  }

  /** Every .cs file of the workspace with the namespaces and types it declares (read by their declarations' words). */
  private files_(): CsFile[] {
    if (this.index) return this.index;
    const out: CsFile[] = [];
    const walk = (dir: string, depth: number) => {
      for (const name of this.files.list(dir)) {
        if (out.length >= MAX_FILES || depth > 12) return;
        if (name.startsWith('.') || SKIP.has(name)) continue;
        const rel = dir ? `${dir}/${name}` : name;
        if (name.endsWith('.cs')) {
          const text = this.files.read(rel);
          if (text === null) continue;
          const namespaces = [...text.matchAll(/^\s*namespace\s+([\w.]+)/gm)].map((m) => m[1]!);
          const types = [...text.matchAll(/\b(?:class|struct|record|interface|enum)\s+(?:(?:class|struct)\s+)?([A-Za-z_]\w*)/g)].map((m) => m[1]!);
          out.push({ path: rel, namespaces: namespaces.length ? namespaces : [''], types });
        } else if (this.files.isDir(rel)) walk(rel, depth + 1);
      }
    };
    walk('', 0);
    this.index = out;
    return out;
  }
}

function dirOf(rel: string): string {
  const d = path.posix.dirname(rel);
  return d === '.' ? '' : d;
}
