// Imports, uses and definitions of a JavaScript or TypeScript file, from its tree-sitter tree: ESM imports and
// re-exports, require(), dynamic import(), `import x = require()`, and what the file does with each binding.
import type { Node, Tree } from '@vscode/tree-sitter-wasm';
import { nodes, stringValue, uniq } from './facts';
import type { FileFacts, ImportRef } from './facts';

/** The node types the walk below looks at. */
const JS_TYPES = new Set(['import_statement', 'export_statement', 'call_expression', 'new_expression', 'member_expression', 'function_declaration', 'generator_function_declaration', 'class_declaration', 'abstract_class_declaration', 'method_definition', 'interface_declaration', 'type_alias_declaration', 'enum_declaration', 'variable_declarator', 'assignment_expression']);

export function jsFacts(tree: Tree): FileFacts {
  const imports: ImportRef[] = [];
  const defines: string[] = [];
  const calls: string[] = [];
  // Local names bound to a whole module (`import * as m`, `const m = require()`): `m.f` means f of that module.
  const bindings = new Map<string, ImportRef>();
  const members: Array<[string, string]> = [];

  for (const node of nodes(tree.rootNode, JS_TYPES)) {
    switch (node.type) {
      case 'import_statement': {
        const req = childOfType(node, 'import_require_clause');
        const spec = stringValue(node.childForFieldName('source') ?? req?.childForFieldName('source'));
        if (spec === null) break;
        const ref: ImportRef = { spec, names: [] };
        imports.push(ref);
        if (req) bindIdentifier(req.namedChildren[0], ref, bindings);
        const clause = childOfType(node, 'import_clause');
        for (const part of clause?.namedChildren ?? []) {
          if (!part) continue;
          if (part.type === 'identifier') {
            ref.names.push('default');
            bindings.set(part.text, ref);
          } else if (part.type === 'namespace_import') bindIdentifier(part.namedChildren[0], ref, bindings);
          else if (part.type === 'named_imports') {
            for (const s of part.namedChildren) if (s?.type === 'import_specifier') ref.names.push(s.childForFieldName('name')?.text ?? '');
          }
        }
        break;
      }
      case 'export_statement': {
        const spec = stringValue(node.childForFieldName('source'));
        const declaration = node.childForFieldName('declaration');
        if (declaration) defines.push(...declaredNames(declaration));
        const clause = childOfType(node, 'export_clause');
        if (spec === null) {
          for (const s of clause?.namedChildren ?? []) if (s?.type === 'export_specifier') defines.push(exportedName(s));
          break;
        }
        const ref: ImportRef = { spec, names: [], passes: !clause };
        for (const s of clause?.namedChildren ?? []) {
          if (s?.type !== 'export_specifier') continue;
          ref.names.push(s.childForFieldName('name')?.text ?? '');
          defines.push(exportedName(s));
        }
        imports.push(ref);
        break;
      }
      case 'call_expression': {
        const fn = node.childForFieldName('function');
        const spec = stringValue(node.childForFieldName('arguments')?.namedChildren[0]);
        if (fn?.type === 'import' && spec !== null) {
          const ref: ImportRef = { spec, names: [] };
          imports.push(ref);
          bindAwaited(node, ref, bindings);
        } else if (fn?.type === 'identifier' && fn.text === 'require' && spec !== null) {
          imports.push(requireRef(node, spec, bindings));
        } else if (fn?.type === 'identifier') calls.push(fn.text);
        else if (fn?.type === 'member_expression') calls.push(fn.childForFieldName('property')?.text ?? '');
        break;
      }
      case 'new_expression': {
        const ctor = node.childForFieldName('constructor');
        if (ctor) calls.push(ctor.type === 'member_expression' ? ctor.childForFieldName('property')?.text ?? '' : ctor.text);
        break;
      }
      case 'member_expression': {
        const object = node.childForFieldName('object');
        if (object?.type === 'identifier') members.push([object.text, node.childForFieldName('property')?.text ?? '']);
        break;
      }
      case 'function_declaration':
      case 'generator_function_declaration':
      case 'class_declaration':
      case 'abstract_class_declaration':
      case 'method_definition':
      case 'interface_declaration':
      case 'type_alias_declaration':
      case 'enum_declaration':
        defines.push(node.childForFieldName('name')?.text ?? '');
        break;
      case 'variable_declarator':
        // Top-level and exported constants; a function's locals are not what a test calls.
        if (isTopLevel(node)) defines.push(...patternNames(node.childForFieldName('name')));
        break;
      case 'assignment_expression': {
        // exports.f = …, module.exports.f = …, C.prototype.f = …, module.exports = { f, g }
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        if (left?.type === 'member_expression') {
          const prop = left.childForFieldName('property')?.text ?? '';
          if (left.text === 'module.exports' && right?.type === 'object') defines.push(...objectKeys(right));
          else if (prop !== 'exports') defines.push(prop);
        }
        break;
      }
    }
  }
  for (const [object, property] of members) bindings.get(object)?.names.push(property);
  for (const ref of imports) ref.names = uniq(ref.names.filter(Boolean));
  return { imports, defines: uniq(defines.filter(Boolean)), calls: uniq(calls.filter(Boolean)) };
}

/** require('x') and what the code around it takes: `const { a } =`, `const m =`, `require('x').a`, `module.exports =`. */
function requireRef(call: Node, spec: string, bindings: Map<string, ImportRef>): ImportRef {
  const ref: ImportRef = { spec, require: true, names: [] };
  const parent = call.parent;
  if (parent?.type === 'variable_declarator' && parent.childForFieldName('value')?.equals(call)) {
    const name = parent.childForFieldName('name');
    if (name?.type === 'identifier') bindings.set(name.text, ref);
    else ref.names.push(...patternNames(name));
  } else if (parent?.type === 'member_expression') {
    ref.names.push(parent.childForFieldName('property')?.text ?? '');
  } else if (parent?.type === 'assignment_expression' && /^(?:module\.)?exports$/.test(parent.childForFieldName('left')?.text ?? '')) {
    ref.passes = true;
  }
  return ref;
}

/** `const m = await import('x')` binds m like a namespace import. */
function bindAwaited(call: Node, ref: ImportRef, bindings: Map<string, ImportRef>): void {
  const up = call.parent?.type === 'await_expression' ? call.parent.parent : call.parent;
  if (up?.type !== 'variable_declarator') return;
  const name = up.childForFieldName('name');
  if (name?.type === 'identifier') bindings.set(name.text, ref);
  else ref.names.push(...patternNames(name));
}

function bindIdentifier(node: Node | null | undefined, ref: ImportRef, bindings: Map<string, ImportRef>): void {
  if (node?.type === 'identifier') bindings.set(node.text, ref);
}

function childOfType(node: Node, type: string): Node | null {
  return node.namedChildren.find((c) => c?.type === type) ?? null;
}

function exportedName(specifier: Node): string {
  return (specifier.childForFieldName('alias') ?? specifier.childForFieldName('name'))?.text ?? '';
}

function declaredNames(declaration: Node): string[] {
  const name = declaration.childForFieldName('name');
  if (name) return [name.text];
  return declaration.namedChildren.filter((c) => c?.type === 'variable_declarator').flatMap((d) => patternNames(d!.childForFieldName('name')));
}

/** The names a binding pattern introduces: `a`, `{ a, b: c }` (a, b: the source's names), `[a, b]`. */
function patternNames(pattern: Node | null | undefined): string[] {
  if (!pattern) return [];
  if (pattern.type === 'identifier') return [pattern.text];
  if (pattern.type === 'object_pattern') {
    return pattern.namedChildren.flatMap((c) => {
      if (c?.type === 'shorthand_property_identifier_pattern') return [c.text];
      if (c?.type === 'pair_pattern') return [c.childForFieldName('key')?.text ?? ''];
      if (c?.type === 'object_assignment_pattern') return patternNames(c.childForFieldName('left'));
      return [];
    });
  }
  if (pattern.type === 'array_pattern') return pattern.namedChildren.flatMap((c) => patternNames(c));
  return [];
}

function objectKeys(object: Node): string[] {
  return object.namedChildren.flatMap((c) => {
    if (c?.type === 'shorthand_property_identifier') return [c.text];
    if (c?.type === 'pair' || c?.type === 'method_definition') return [(c.childForFieldName('key') ?? c.childForFieldName('name'))?.text ?? ''];
    return [];
  });
}

function isTopLevel(declarator: Node): boolean {
  let up = declarator.parent;
  while (up && (up.type === 'lexical_declaration' || up.type === 'variable_declaration' || up.type === 'export_statement')) up = up.parent;
  return up?.type === 'program';
}
