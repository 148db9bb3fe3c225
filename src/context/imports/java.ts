// Java: `import a.b.C` (a class), `import static a.b.C.m`, `import a.b.*`, and the classes of the file's own package
// it names without importing them (`new Money(…)` beside Money.java), each found as the compiler finds it: a.b.C is
// a/b/C.java under a source root. The roots are the importing file's own (its path minus its package's folders) and
// the Maven/Gradle ones of its module and of the workspace's modules (src/main/java, src/test/java).
import * as path from 'node:path';
import type { Node, Tree } from '@vscode/tree-sitter-wasm';
import { nodes, uniq } from './facts';
import type { FileFacts, ImportRef } from './facts';
import type { WorkspaceFiles } from './workspaceFiles';
import { declarations, calledNames } from '../parse/units';

const JAVA_TYPES = new Set(['package_declaration', 'import_declaration', 'type_identifier', 'identifier']);
/** Files one `import a.b.*` reaches, at most: a wide package is the map's job. */
const MAX_WILDCARD_FILES = 40;
const SOURCE_DIRS = ['src/main/java', 'src/test/java', 'src/main/kotlin', 'src/test/kotlin', 'src'];

export function javaFacts(tree: Tree): FileFacts {
  const imports: ImportRef[] = [];
  const imported = new Set<string>();
  let pkg = '';
  const used = new Set<string>();
  for (const node of nodes(tree.rootNode, JAVA_TYPES)) {
    if (node.type === 'package_declaration') pkg = scoped(node)?.text.replace(/\s+/g, '') ?? '';
    else if (node.type === 'import_declaration') {
      const name = scoped(node)?.text.replace(/\s+/g, '') ?? '';
      const wildcard = node.namedChildren.some((c) => c?.type === 'asterisk');
      const isStatic = /^import\s+static\b/.test(node.text);
      const last = name.slice(name.lastIndexOf('.') + 1);
      if (wildcard) imports.push({ spec: `${name}.*`, names: [] });
      else if (isStatic) imports.push({ spec: name.slice(0, name.lastIndexOf('.')), names: [last] });
      else {
        imports.push({ spec: name, names: [last] });
        imported.add(last);
      }
    } else if (/^[A-Z]/.test(node.text) && !inImport(node)) used.add(node.text);
  }
  // Same package: visible without an import. Only names the file uses, so a package of 300 classes costs nothing.
  for (const name of used) if (!imported.has(name)) imports.push({ spec: pkg ? `${pkg}.${name}` : name, names: [name] });
  const defines = declarations(tree, 'java').map((d) => d.unit.name).filter(Boolean);
  return { imports, defines: uniq(defines), calls: calledNames(tree.rootNode, 'java', true) };
}

function scoped(node: Node): Node | null {
  return node.namedChildren.find((c) => c?.type === 'scoped_identifier' || c?.type === 'identifier') ?? null;
}

function inImport(node: Node): boolean {
  for (let n = node.parent; n; n = n.parent) if (n.type === 'import_declaration' || n.type === 'package_declaration') return true;
  return false;
}

export class JavaResolver {
  private moduleRoots: string[] | null = null;

  constructor(private readonly files: WorkspaceFiles) {}

  resolve(ref: ImportRef, from: string): string[] {
    const parts = ref.spec.split('.');
    const wildcard = parts[parts.length - 1] === '*';
    if (wildcard) parts.pop();
    for (const root of this.rootsFor(from)) {
      if (wildcard) {
        const dir = path.posix.join(root || '.', ...parts);
        const found = this.files.list(dir).filter((n) => n.endsWith('.java')).map((n) => this.files.norm(`${dir}/${n}`)).filter((f): f is string => f !== null && this.files.isFile(f));
        if (found.length) return found.slice(0, MAX_WILDCARD_FILES);
        continue;
      }
      // `a.b.Outer.Inner`: the file is the outermost class's.
      for (let n = parts.length; n > 0 && /^[A-Z]/.test(parts[n - 1] ?? ''); n--) {
        const file = this.files.norm(`${path.posix.join(root || '.', ...parts.slice(0, n))}.java`);
        if (file && this.files.isFile(file)) return [file];
      }
    }
    return [];
  }

  /** The file's own source root first (its folder minus its package's), then its module's and the workspace's. */
  private rootsFor(from: string): string[] {
    const text = this.files.read(from) ?? '';
    const pkg = /^\s*package\s+([\w.]+)\s*;/m.exec(text)?.[1] ?? '';
    const dir = dirOf(from);
    const pkgPath = pkg.replace(/\./g, '/');
    const own = pkg && (dir === pkgPath || dir.endsWith(`/${pkgPath}`)) ? dir.slice(0, dir.length - pkgPath.length).replace(/\/$/, '') : dir;
    const module = /^(.*?)\/?src\//.exec(`${own}/`)?.[1] ?? '';
    const fromModule = SOURCE_DIRS.map((s) => (module ? `${module}/${s}` : s));
    return uniq([own, ...fromModule, ...this.workspaceRoots()]).filter((r) => r === '' || this.files.isDir(r));
  }

  /** src/main/java of the workspace's modules, one and two folders down (a multi-module Maven or Gradle build). */
  private workspaceRoots(): string[] {
    if (this.moduleRoots) return this.moduleRoots;
    const out: string[] = [];
    const visit = (dir: string, depth: number) => {
      for (const name of this.files.list(dir)) {
        if (name.startsWith('.') || name === 'node_modules' || name === 'target' || name === 'build') continue;
        const sub = dir ? `${dir}/${name}` : name;
        if (this.files.isDir(`${sub}/src/main/java`)) out.push(`${sub}/src/main/java`);
        if (depth < 2 && this.files.isDir(sub)) visit(sub, depth + 1);
      }
    };
    visit('', 1);
    this.moduleRoots = out;
    return out;
  }
}

function dirOf(rel: string): string {
  const d = path.posix.dirname(rel);
  return d === '.' ? '' : d;
}
