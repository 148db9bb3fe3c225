// Go: an import path inside the module (go.mod's `module` line → a folder of the module) reaches every non-test .go
// file of that package; a _test.go file also reaches its own package's files. Standard library and other modules'
// packages are no files of the workspace.
import * as path from 'node:path';
import type { Tree } from '@vscode/tree-sitter-wasm';
import { nodes, stringValue, uniq } from './facts';
import type { FileFacts, ImportRef } from './facts';
import type { WorkspaceFiles } from './workspaceFiles';

/** The node types the walk below looks at. */
const GO_TYPES = new Set(['import_spec', 'function_declaration', 'method_declaration', 'type_spec', 'const_spec', 'var_spec', 'call_expression', 'selector_expression', 'qualified_type']);

export function goFacts(tree: Tree): FileFacts {
  const imports: ImportRef[] = [];
  const defines: string[] = [];
  const calls: string[] = [];
  const byName = new Map<string, ImportRef>();
  const selectors: Array<[string, string]> = [];
  for (const node of nodes(tree.rootNode, GO_TYPES)) {
    switch (node.type) {
      case 'import_spec': {
        const spec = stringValue(node.childForFieldName('path'));
        if (spec === null) break;
        const ref: ImportRef = { spec, names: [] };
        imports.push(ref);
        // The package's name in code: its alias, else (as a rule) the path's last element.
        const alias = node.childForFieldName('name')?.text;
        byName.set(alias && alias !== '_' && alias !== '.' ? alias : spec.split('/').pop()!, ref);
        break;
      }
      case 'function_declaration':
      case 'method_declaration':
      case 'type_spec':
        defines.push(node.childForFieldName('name')?.text ?? '');
        break;
      case 'const_spec':
      case 'var_spec':
        for (const n of node.childrenForFieldName('name')) defines.push(n?.text ?? '');
        break;
      case 'call_expression': {
        const fn = node.childForFieldName('function');
        if (fn?.type === 'identifier') calls.push(fn.text);
        else if (fn?.type === 'selector_expression') calls.push(fn.childForFieldName('field')?.text ?? '');
        break;
      }
      case 'selector_expression':
      case 'qualified_type': {
        const operand = node.childForFieldName('operand') ?? node.childForFieldName('package');
        const field = node.childForFieldName('field') ?? node.childForFieldName('name');
        if (operand && field) selectors.push([operand.text, field.text]);
        break;
      }
    }
  }
  for (const [operand, field] of selectors) byName.get(operand)?.names.push(field);
  for (const ref of imports) ref.names = uniq(ref.names);
  return { imports, defines: uniq(defines.filter(Boolean)), calls: uniq(calls.filter(Boolean)) };
}

export class GoResolver {
  private readonly modules = new Map<string, { dir: string; path: string } | null>();

  constructor(private readonly files: WorkspaceFiles) {}

  resolve(ref: ImportRef, from: string): string[] {
    const mod = this.moduleOf(dirOf(from));
    if (!mod) return [];
    if (ref.spec !== mod.path && !ref.spec.startsWith(`${mod.path}/`)) return [];
    return this.packageFiles(path.posix.join(mod.dir || '.', ref.spec.slice(mod.path.length)));
  }

  /** A test file compiles with its package: the package's other files are where its calls land. */
  companions(from: string): string[] {
    return from.endsWith('_test.go') ? this.packageFiles(dirOf(from)) : [];
  }

  private packageFiles(dir: string): string[] {
    const d = this.files.norm(dir) ?? '';
    return this.files
      .list(d)
      .filter((n) => n.endsWith('.go') && !n.endsWith('_test.go'))
      .map((n) => (d ? `${d}/${n}` : n))
      .filter((f) => this.files.isFile(f));
  }

  /** The nearest go.mod at or above `dir`, and the module path it declares. */
  private moduleOf(dir: string): { dir: string; path: string } | null {
    if (this.modules.has(dir)) return this.modules.get(dir)!;
    const text = this.files.read(dir ? `${dir}/go.mod` : 'go.mod');
    // The module directive is one line of go.mod's grammar: `module path` (the path may be quoted).
    const m = text === null ? null : /^\s*module\s+"?([^\s"]+)"?/m.exec(text);
    const found = m ? { dir, path: m[1] } : dir ? this.moduleOf(dirOf(dir)) : null;
    this.modules.set(dir, found);
    return found;
  }
}

function dirOf(rel: string): string {
  const d = path.posix.dirname(rel);
  return d === '.' ? '' : d;
}
