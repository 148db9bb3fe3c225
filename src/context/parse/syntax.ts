// What each grammar calls a function, a class, an import and a test: the node types of tree-sitter's JavaScript,
// TypeScript, Python, Go, Rust, Java, C++ (which reads C too), C#, Ruby and PHP grammars, and how a unit's name, its
// "exported" mark and its test mark are read.
import type { Node } from '@vscode/tree-sitter-wasm';
import type { LanguageId } from './grammars';
import { cppFunctionName, isTestFunction } from './testMarks';

export type UnitKind = 'function' | 'class' | 'test';

/** A function, class, method or test block: what the prompt shows whole. */
export interface Unit {
  node: Node;
  kind: UnitKind;
  name: string;
}

interface Syntax {
  functions: ReadonlySet<string>;
  classes: ReadonlySet<string>;
  /** Top-level statements that bring in other code (plus CommonJS requires, found by unitOf's caller). */
  imports: ReadonlySet<string>;
  /** Nodes that wrap a unit and belong with it (decorators, `export`). */
  wrappers: ReadonlySet<string>;
  /** Namespaces (C++, C#, PHP) and Ruby modules: what they hold counts as the file's top level. */
  containers?: ReadonlySet<string>;
}

const JS_LIKE: Syntax = {
  functions: new Set(['function_declaration', 'generator_function_declaration', 'method_definition', 'function_signature', 'abstract_method_signature']),
  classes: new Set(['class_declaration', 'abstract_class_declaration', 'interface_declaration', 'enum_declaration', 'type_alias_declaration']),
  imports: new Set(['import_statement']),
  wrappers: new Set(['export_statement']),
};

const SYNTAX: Record<LanguageId, Syntax> = {
  javascript: JS_LIKE,
  typescript: JS_LIKE,
  tsx: JS_LIKE,
  python: {
    functions: new Set(['function_definition']),
    classes: new Set(['class_definition']),
    imports: new Set(['import_statement', 'import_from_statement', 'future_import_statement']),
    wrappers: new Set(['decorated_definition']),
  },
  go: {
    functions: new Set(['function_declaration', 'method_declaration']),
    classes: new Set(['type_declaration']),
    imports: new Set(['package_clause', 'import_declaration']),
    wrappers: new Set(),
  },
  rust: {
    functions: new Set(['function_item', 'function_signature_item', 'macro_definition']),
    classes: new Set(['impl_item', 'struct_item', 'enum_item', 'trait_item', 'union_item', 'type_item']),
    imports: new Set(['use_declaration', 'extern_crate_declaration']),
    wrappers: new Set(),
  },
  java: {
    functions: new Set(['method_declaration', 'constructor_declaration', 'compact_constructor_declaration']),
    classes: new Set(['class_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration', 'annotation_type_declaration']),
    imports: new Set(['package_declaration', 'import_declaration']),
    wrappers: new Set(),
  },
  cpp: {
    functions: new Set(['function_definition']),
    classes: new Set(['class_specifier', 'struct_specifier', 'union_specifier', 'enum_specifier']),
    imports: new Set(['preproc_include', 'using_declaration']),
    wrappers: new Set(['template_declaration']),
    containers: new Set(['namespace_definition', 'linkage_specification']),
  },
  csharp: {
    functions: new Set(['method_declaration', 'constructor_declaration', 'operator_declaration', 'local_function_statement']),
    classes: new Set(['class_declaration', 'struct_declaration', 'record_declaration', 'interface_declaration', 'enum_declaration']),
    imports: new Set(['using_directive', 'file_scoped_namespace_declaration']),
    wrappers: new Set(),
    containers: new Set(['namespace_declaration']),
  },
  ruby: {
    functions: new Set(['method', 'singleton_method']),
    classes: new Set(['class']),
    imports: new Set(),
    wrappers: new Set(),
    containers: new Set(['module']),
  },
  php: {
    functions: new Set(['function_definition', 'method_declaration']),
    classes: new Set(['class_declaration', 'interface_declaration', 'trait_declaration', 'enum_declaration']),
    imports: new Set(['namespace_use_declaration', 'namespace_definition']),
    wrappers: new Set(),
    containers: new Set(['namespace_definition']),
  },
};

/**
 * The statements at the file's top level, with those inside its namespaces and (Ruby) modules: `namespace app { class
 * Cart … }` declares Cart as plainly as a top-level class does.
 */
export function topLevelNodes(root: Node, lang: LanguageId): Node[] {
  const containers = SYNTAX[lang].containers;
  const out: Node[] = [];
  const visit = (parent: Node, depth: number) => {
    for (const child of parent.namedChildren) {
      if (!child) continue;
      const body = containers?.has(child.type) && depth < 8 ? child.childForFieldName('body') : null;
      if (body) visit(body, depth + 1);
      else out.push(child);
    }
  };
  visit(root, 0);
  return out;
}

export function syntaxOf(lang: LanguageId): Syntax {
  return SYNTAX[lang];
}

const JS_FUNCTION_VALUES = new Set(['function_expression', 'function', 'arrow_function', 'generator_function', 'class']);
const JS_TEST_CALLS = new Set(['it', 'test', 'specify', 'fit', 'xit', 'xtest']);

/** The unit `node` is, or null: a declaration, a function held by a name (`const f = () => …`), or a test block. */
export function unitOf(node: Node, lang: LanguageId): Unit | null {
  const syntax = SYNTAX[lang];
  if (syntax.functions.has(node.type) || syntax.classes.has(node.type)) {
    const kind = syntax.functions.has(node.type) ? (isTestFunction(node, lang) ? 'test' : 'function') : 'class';
    return { node: wrapped(node, syntax), kind, name: nameOf(node) };
  }
  if (lang === 'javascript' || lang === 'typescript' || lang === 'tsx') return jsUnit(node);
  if (lang === 'ruby') return rubyTestBlock(node);
  return null;
}

const RUBY_TEST_CALLS = new Set(['it', 'specify', 'example', 'scenario', 'test', 'its']);

/** RSpec's `it '…' do … end` and minitest/spec's `test '…' do`: a test without a method. */
function rubyTestBlock(node: Node): Unit | null {
  if (node.type !== 'call' || node.childForFieldName('receiver') || !node.childForFieldName('block')) return null;
  if (!RUBY_TEST_CALLS.has(node.childForFieldName('method')?.text ?? '')) return null;
  const title = node.childForFieldName('arguments')?.namedChild(0);
  return { node, kind: 'test', name: title?.type === 'string' ? title.text.slice(1, -1) : '' };
}

/** The export or decorator around a unit belongs to it: its lines are shown with it. */
function wrapped(node: Node, syntax: Syntax): Node {
  let n = node;
  while (n.parent && syntax.wrappers.has(n.parent.type)) n = n.parent;
  return n;
}

function nameOf(node: Node): string {
  if (node.type === 'function_definition' && node.childForFieldName('declarator')) return cppFunctionName(node).name;
  const name = node.childForFieldName('name') ?? node.childForFieldName('type');
  // `class Inflect::Words` (Ruby), `class ns::Foo` (C++): the class's own name.
  if (name) return name.text.replace(/^.*::/s, '');
  if (node.type === 'type_declaration') return node.namedChild(0)?.childForFieldName('name')?.text ?? '';
  return '';
}

/** `const f = () => …`, `obj.f = function …`, `f: function …` and `it('…', () => …)`: JavaScript's units without a declaration. */
function jsUnit(node: Node): Unit | null {
  if (!JS_FUNCTION_VALUES.has(node.type)) return null;
  const parent = node.parent;
  if (!parent) return null;
  const kind: UnitKind = node.type === 'class' ? 'class' : 'function';
  if (parent.type === 'variable_declarator' && parent.childForFieldName('value')?.equals(node)) {
    const statement = parent.parent;
    const holder = statement && (statement.type === 'lexical_declaration' || statement.type === 'variable_declaration') ? statement : parent;
    return { node: wrapped(holder, JS_LIKE), kind, name: parent.childForFieldName('name')?.text ?? '' };
  }
  if (parent.type === 'assignment_expression' && parent.childForFieldName('right')?.equals(node)) {
    const holder = parent.parent?.type === 'expression_statement' ? parent.parent : parent;
    return { node: holder, kind, name: parent.childForFieldName('left')?.text ?? '' };
  }
  if (parent.type === 'pair' && parent.childForFieldName('value')?.equals(node)) {
    return { node: parent, kind, name: parent.childForFieldName('key')?.text ?? '' };
  }
  if (parent.type === 'arguments') {
    const call = parent.parent;
    const callee = call?.type === 'call_expression' ? call.childForFieldName('function') : null;
    if (call && callee && JS_TEST_CALLS.has(testCallName(callee))) {
      const holder = call.parent?.type === 'expression_statement' ? call.parent : call;
      const title = parent.namedChild(0);
      return { node: holder, kind: 'test', name: title && /string/.test(title.type) ? title.text.slice(1, -1) : '' };
    }
  }
  return null;
}

/** `it`, `it.only`, `test.skip`, `test.each(table)`: the name the test function is called by. */
function testCallName(callee: Node): string {
  let n: Node | null = callee;
  while (n && (n.type === 'member_expression' || n.type === 'call_expression')) {
    n = n.type === 'member_expression' ? n.childForFieldName('object') : n.childForFieldName('function');
  }
  return n?.type === 'identifier' ? n.text : '';
}

/** The first row a unit's lines start on: a Rust item's attributes belong to it. */
export function firstRow(node: Node, lang: LanguageId): number {
  let row = node.startPosition.row;
  if (lang === 'rust') {
    for (let prev = node.previousNamedSibling; prev?.type === 'attribute_item' && prev.endPosition.row >= row - 1; prev = prev.previousNamedSibling) row = prev.startPosition.row;
  }
  return row;
}

/** A top-level `const x = require('…')` (or `require('…').y`): CommonJS's import. */
export function isRequire(node: Node): boolean {
  if (node.type !== 'lexical_declaration' && node.type !== 'variable_declaration') return false;
  return node.namedChildren.every((d) => {
    let value = d?.childForFieldName('value') ?? null;
    while (value && value.type === 'member_expression') value = value.childForFieldName('object');
    return value?.type === 'call_expression' && value.childForFieldName('function')?.text === 'require';
  });
}

/** Whether a top-level unit is part of its file's public face (the map shows only those). */
export function isExported(node: Node, name: string, lang: LanguageId): boolean {
  switch (lang) {
    case 'python':
      return !name.startsWith('_');
    case 'go':
      return /^[A-Z]/.test(name);
    case 'rust':
      return node.namedChildren.some((c) => c?.type === 'visibility_modifier') || node.type === 'impl_item';
    case 'java':
    case 'csharp':
    case 'php':
      return !isPrivate(node);
    case 'cpp':
      return !node.namedChildren.some((c) => c?.type === 'storage_class_specifier' && c.text === 'static');
    case 'ruby':
      return true;
    default:
      return node.type === 'export_statement' || (node.type === 'expression_statement' && /^(module\.)?exports\b/.test(name));
  }
}

/** A Java, C# or PHP declaration marked `private`. */
export function isPrivate(node: Node): boolean {
  for (const c of node.namedChildren) {
    if (!c) continue;
    if (c.type === 'modifiers') return /\bprivate\b/.test(c.text);
    if ((c.type === 'modifier' || c.type === 'visibility_modifier') && c.text === 'private') return true;
  }
  return false;
}
