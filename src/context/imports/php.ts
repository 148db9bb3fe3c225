// PHP: `use A\B\C` found as Composer's autoloader finds it — composer.json's `autoload` and `autoload-dev` PSR-4 maps,
// the longest namespace prefix first (A\B\ → src/: src/C.php) — plus the classes of the file's own namespace it names
// without a `use`, and `require`/`include` of a literal path (or `__DIR__ . '/x.php'`), beside the file or from the root.
import * as path from 'node:path';
import type { Node, Tree } from '@vscode/tree-sitter-wasm';
import { nodes, stringValue, uniq } from './facts';
import type { FileFacts, ImportRef } from './facts';
import type { WorkspaceFiles } from './workspaceFiles';
import { calledNames, declarations } from '../parse/units';

const PHP_TYPES = new Set(['namespace_definition', 'namespace_use_declaration', 'require_expression', 'require_once_expression', 'include_expression', 'include_once_expression', 'name', 'qualified_name']);

export function phpFacts(tree: Tree): FileFacts {
  const imports: ImportRef[] = [];
  const imported = new Set<string>();
  const used = new Set<string>();
  let namespace = '';
  for (const node of nodes(tree.rootNode, PHP_TYPES)) {
    switch (node.type) {
      case 'namespace_definition':
        namespace = node.childForFieldName('name')?.text ?? '';
        break;
      case 'namespace_use_declaration': {
        const group = node.childForFieldName('body');
        const prefix = group ? node.namedChildren.find((c) => c?.type === 'namespace_name')?.text ?? '' : '';
        for (const clause of (group ?? node).namedChildren) {
          if (clause?.type !== 'namespace_use_clause') continue;
          const target = clause.namedChildren.find((c) => c?.type === 'qualified_name' || c?.type === 'name');
          if (!target) continue;
          const full = [prefix, target.text].filter(Boolean).join('\\').replace(/^\\/, '');
          const alias = clause.childForFieldName('alias')?.text ?? full.slice(full.lastIndexOf('\\') + 1);
          imported.add(alias);
          imports.push({ spec: `class:${full}`, names: [full.slice(full.lastIndexOf('\\') + 1)] });
        }
        break;
      }
      case 'require_expression':
      case 'require_once_expression':
      case 'include_expression':
      case 'include_once_expression': {
        const spec = literalPath(node.namedChild(0));
        if (spec !== null) imports.push({ spec: `file:${spec}`, names: [] });
        break;
      }
      case 'name':
      case 'qualified_name':
        if (/^[A-Z]/.test(node.text) && usesClass(node)) used.add(node.text.replace(/^\\/, ''));
        break;
    }
  }
  // The file's own namespace needs no `use`: `new Money()` in Acme\Money is Acme\Money\Money.
  for (const name of used) {
    if (name.includes('\\')) imports.push({ spec: `class:${name}`, names: [name.slice(name.lastIndexOf('\\') + 1)] });
    else if (!imported.has(name)) imports.push({ spec: `class:${namespace ? `${namespace}\\` : ''}${name}`, names: [name] });
  }
  const defines = declarations(tree, 'php').map((d) => d.unit.name).filter(Boolean);
  return { imports, defines: uniq(defines), calls: calledNames(tree.rootNode, 'php', true) };
}

/** A class name where the code uses a class: `new X`, `X::m()`, `X $p`, `extends X`, `instanceof X`, `catch (X $e)`. */
function usesClass(node: Node): boolean {
  const p = node.parent;
  if (!p || p.type === 'namespace_name' || p.type === 'qualified_name') return false;
  return ['object_creation_expression', 'scoped_call_expression', 'class_constant_access_expression', 'named_type', 'base_clause', 'class_interface_clause', 'binary_expression', 'type_list', 'scoped_property_access_expression'].includes(p.type);
}

/** 'x.php', `__DIR__ . '/x.php'`, `dirname(__FILE__) . '/x.php'`: `./`-prefixed when relative to the file's folder. */
function literalPath(node: Node | null): string | null {
  if (!node) return null;
  if (node.type === 'parenthesized_expression') return literalPath(node.namedChild(0));
  const s = stringValue(node) ?? (node.type === 'encapsed_string' && !node.namedChildren.some((c) => c?.type === 'variable_name') ? node.text.slice(1, -1) : null);
  if (s !== null) return s;
  if (node.type === 'binary_expression' && node.text.includes('.')) {
    const left = node.childForFieldName('left')?.text.replace(/\s+/g, '');
    const right = literalPath(node.childForFieldName('right'));
    if (right !== null && (left === '__DIR__' || left === 'dirname(__FILE__)')) return `./${right.replace(/^\//, '')}`;
  }
  return null;
}

export class PhpResolver {
  private map: Array<{ prefix: string; dirs: string[] }> | null = null;

  constructor(private readonly files: WorkspaceFiles) {}

  resolve(ref: ImportRef, from: string): string[] {
    if (ref.spec.startsWith('file:')) {
      const spec = ref.spec.slice(5);
      // PHP looks on the include path ('.': where the script started, the workspace here), then beside the file.
      const candidates = spec.startsWith('./') ? [path.posix.join(dirOf(from) || '.', spec)] : [spec, path.posix.join(dirOf(from) || '.', spec)];
      return this.found(candidates);
    }
    const cls = ref.spec.slice(6);
    const map = this.psr4();
    for (const { prefix, dirs } of map) {
      if (!cls.startsWith(prefix)) continue;
      const rest = cls.slice(prefix.length).replace(/\\/g, '/');
      const hit = this.found(dirs.map((d) => `${path.posix.join(d || '.', rest)}.php`));
      if (hit.length) return hit;
    }
    if (map.length) return [];
    // No composer map (a hand-written autoloader): the PSR-4 layout the convention gives, the vendor's namespace
    // dropped or kept, under src/, lib/ or the root.
    const parts = cls.split('\\');
    for (let drop = 0; drop < Math.min(3, parts.length); drop++) {
      const rest = parts.slice(drop).join('/');
      const hit = this.found(['src', 'lib', ''].map((d) => `${path.posix.join(d || '.', rest)}.php`));
      if (hit.length) return hit;
    }
    return [];
  }

  private found(candidates: string[]): string[] {
    for (const c of candidates) {
      const f = this.files.norm(c);
      if (f && this.files.isFile(f)) return [f];
    }
    return [];
  }

  /** composer.json's PSR-4 prefixes, longest first. */
  private psr4(): Array<{ prefix: string; dirs: string[] }> {
    if (this.map) return this.map;
    const out: Array<{ prefix: string; dirs: string[] }> = [];
    try {
      const composer = JSON.parse(this.files.read('composer.json') ?? 'null') as Record<string, { 'psr-4'?: Record<string, unknown> } | undefined> | null;
      for (const section of ['autoload', 'autoload-dev']) {
        for (const [prefix, value] of Object.entries(composer?.[section]?.['psr-4'] ?? {})) {
          const dirs = (Array.isArray(value) ? value : [value]).filter((d): d is string => typeof d === 'string').map((d) => d.replace(/\/+$/, ''));
          out.push({ prefix: prefix.replace(/^\\/, ''), dirs });
        }
      }
    } catch {
      // a composer.json that does not parse maps no namespace
    }
    this.map = out.sort((a, b) => b.prefix.length - a.prefix.length);
    return this.map;
  }
}

function dirOf(rel: string): string {
  const d = path.posix.dirname(rel);
  return d === '.' ? '' : d;
}
