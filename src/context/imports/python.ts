// Python: `import a.b.c`, `from ..a import b`, `from . import x`, and where they land as the interpreter would find
// them: packages (__init__.py) and modules, relative to the importing package, or from the project's own roots (the
// workspace, src/, a pyproject's package folder, and the test file's own folder as pytest puts it on sys.path).
import * as path from 'node:path';
import type { Tree } from '@vscode/tree-sitter-wasm';
import { parse as parseToml } from 'smol-toml';
import { nodes, uniq } from './facts';
import type { FileFacts, ImportRef } from './facts';
import type { WorkspaceFiles } from './workspaceFiles';

/** The node types the walk below looks at. */
const PY_TYPES = new Set(['import_statement', 'import_from_statement', 'function_definition', 'class_definition', 'assignment', 'call', 'attribute']);

export function pythonFacts(tree: Tree): FileFacts {
  const imports: ImportRef[] = [];
  const defines: string[] = [];
  const calls: string[] = [];
  // `import a.b as m` binds m; `import a.b` binds a.b: `m.f` / `a.b.f` mean f of that module.
  const bindings = new Map<string, ImportRef>();
  const attributes: Array<[string, string]> = [];
  for (const node of nodes(tree.rootNode, PY_TYPES)) {
    switch (node.type) {
      case 'import_statement':
        for (const part of node.childrenForFieldName('name')) {
          if (!part) continue;
          const dotted = part.type === 'aliased_import' ? part.childForFieldName('name') : part;
          const ref: ImportRef = { spec: dotted?.text ?? '', names: [] };
          imports.push(ref);
          bindings.set(part.type === 'aliased_import' ? part.childForFieldName('alias')?.text ?? '' : ref.spec, ref);
        }
        break;
      case 'import_from_statement': {
        const ref: ImportRef = { spec: node.childForFieldName('module_name')?.text ?? '', names: [], submodules: [] };
        if (node.namedChildren.some((c) => c?.type === 'wildcard_import')) ref.passes = true;
        for (const part of node.childrenForFieldName('name')) {
          const name = (part?.type === 'aliased_import' ? part.childForFieldName('name') : part)?.text ?? '';
          ref.names.push(name);
          ref.submodules!.push(name);
        }
        imports.push(ref);
        break;
      }
      case 'function_definition':
      case 'class_definition':
        defines.push(node.childForFieldName('name')?.text ?? '');
        break;
      case 'assignment':
        if (node.parent?.parent?.type === 'module' && node.childForFieldName('left')?.type === 'identifier') defines.push(node.childForFieldName('left')!.text);
        break;
      case 'call': {
        const fn = node.childForFieldName('function');
        if (fn?.type === 'identifier') calls.push(fn.text);
        else if (fn?.type === 'attribute') calls.push(fn.childForFieldName('attribute')?.text ?? '');
        break;
      }
      case 'attribute': {
        const object = node.childForFieldName('object');
        if (object) attributes.push([object.text, node.childForFieldName('attribute')?.text ?? '']);
        break;
      }
    }
  }
  for (const [object, attribute] of attributes) bindings.get(object)?.names.push(attribute);
  for (const ref of imports) ref.names = uniq(ref.names.filter(Boolean));
  return { imports, defines: uniq(defines.filter(Boolean)), calls: uniq(calls.filter(Boolean)) };
}

export class PythonResolver {
  private roots: string[] | null = null;

  constructor(private readonly files: WorkspaceFiles) {}

  resolve(ref: ImportRef, from: string): string[] {
    const level = /^\.*/.exec(ref.spec)![0].length;
    const dotted = ref.spec.slice(level);
    const parts = dotted ? dotted.split('.') : [];
    let bases: string[];
    if (level > 0) {
      let pkg = dirOf(from);
      for (let i = 1; i < level; i++) pkg = dirOf(pkg);
      bases = [pkg];
    } else {
      bases = [...this.projectRoots(), dirOf(from)];
    }
    for (const base of bases) {
      const module = this.module(base, parts);
      const subs = (ref.submodules ?? []).map((s) => this.module(base, [...parts, s]));
      const found = subs.filter((f): f is string => f !== null);
      // `from . import a, b` where a and b are modules takes nothing from the package's __init__.py but its running.
      const needsModule = module !== null && (subs.length === 0 || subs.includes(null));
      if (needsModule || found.length) return uniq([...(needsModule ? [module] : []), ...found]);
    }
    return [];
  }

  /** `a/b.py` or the package `a/b/__init__.py` under `base`; the package itself for no parts. */
  private module(base: string, parts: string[]): string | null {
    const stem = path.posix.join(base || '.', ...parts);
    const candidates = parts.length ? [`${stem}.py`, `${stem}/__init__.py`] : [`${stem}/__init__.py`];
    return candidates.map((c) => this.files.norm(c)).find((c): c is string => c !== null && this.files.isFile(c)) ?? null;
  }

  /** Where the project's own top-level packages live: the workspace, src/, and what pyproject.toml names. */
  private projectRoots(): string[] {
    if (this.roots) return this.roots;
    const roots = ['', 'src'];
    try {
      const text = this.files.read('pyproject.toml');
      const toml = text ? (parseToml(text) as PyProject) : {};
      const setuptools = toml.tool?.setuptools;
      const dir = setuptools?.['package-dir']?.[''];
      if (typeof dir === 'string') roots.unshift(dir);
      for (const where of setuptools?.packages?.find?.where ?? []) if (typeof where === 'string') roots.push(where);
      for (const p of toml.tool?.poetry?.packages ?? []) if (typeof p?.from === 'string') roots.push(p.from);
    } catch {
      // a pyproject that does not parse names no roots; the usual ones still count
    }
    this.roots = uniq(roots.map((r) => this.files.norm(r) ?? '')).filter((r) => r === '' || this.files.isDir(r));
    return this.roots;
  }
}

interface PyProject {
  tool?: {
    setuptools?: { 'package-dir'?: Record<string, unknown>; packages?: { find?: { where?: unknown[] } } };
    poetry?: { packages?: Array<{ from?: unknown }> };
  };
}

function dirOf(rel: string): string {
  const d = path.posix.dirname(rel);
  return d === '.' ? '' : d;
}
