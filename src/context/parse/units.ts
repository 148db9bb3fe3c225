// Walking a syntax tree for units: the innermost one around a line, the file's top-level ones (and the members of
// its classes), and the names a unit calls.
import type { Node, Tree } from '@vscode/tree-sitter-wasm';
import type { LanguageId } from './grammars';
import { firstRow, isRequire, syntaxOf, topLevelNodes, unitOf } from './syntax';
import { cppFunctionName } from './testMarks';
import type { Unit } from './syntax';
import { goReceiverType, typedCalls } from './receivers';
import { CALL_TYPES, callSite } from './calls';

/** A function nested in another function is shown with it while the outer one stays this short. */
export const MAX_UNIT_LINES = 150;

export function linesOf(node: Node, lang: LanguageId): [number, number] {
  return [firstRow(node, lang) + 1, node.endPosition.row + 1];
}

function spanOf(u: Unit, lang: LanguageId): number {
  const [start, end] = linesOf(u.node, lang);
  return end - start + 1;
}

/**
 * The unit around 1-based `line`: the innermost method or class member, widened to an enclosing function while short.
 * Looked for from the line's first and last characters (`it('adds', () => {` opens its test at the end, `});` closes
 * it at the start); the smaller unit wins.
 */
export function unitAt(tree: Tree, line: number, text: string, lang: LanguageId): Unit | null {
  const row = line - 1;
  const source = text.split('\n')[row] ?? '';
  const first = Math.max(0, source.search(/\S/));
  const last = Math.max(first, source.trimEnd().length - 1);
  const found = [unitFrom(tree, row, first, lang), unitFrom(tree, row, last, lang)].filter((u): u is Unit => u !== null);
  return found.sort((a, b) => spanOf(a, lang) - spanOf(b, lang))[0] ?? null;
}

function unitFrom(tree: Tree, row: number, column: number, lang: LanguageId): Unit | null {
  let node: Node | null = tree.rootNode.descendantForPosition({ row, column });
  let found: Unit | null = null;
  for (; node; node = node.parent) {
    const unit = unitOf(node, lang);
    if (!unit || (found && unit.node.equals(found.node))) continue;
    if (!found) {
      found = unit;
      if (unit.kind !== 'function') break;
      continue;
    }
    // A helper declared inside a function reads only with its caller; a method stays apart from its class.
    if (unit.kind === 'function' && spanOf(unit, lang) <= MAX_UNIT_LINES) found = unit;
    else break;
  }
  return found;
}

/** The top-level statement around a line, for code outside any unit (a constant, a table, module setup). */
export function statementAt(tree: Tree, line: number, lang: LanguageId): Node | null {
  for (const child of topLevelNodes(tree.rootNode, lang)) {
    if (child && child.startPosition.row <= line - 1 && child.endPosition.row >= line - 1) return child;
  }
  return null;
}

/**
 * Every unit at the top of the file, with the members of classes one level down (`depth` 1); `owner` is the class,
 * impl or Go receiver type a method belongs to (`Cart.prototype.add`'s Cart), so a typed call finds it exactly.
 */
export function declarations(tree: Tree, lang: LanguageId): Array<{ unit: Unit; depth: number; owner?: string }> {
  const out: Array<{ unit: Unit; depth: number; owner?: string }> = [];
  for (const child of topLevelNodes(tree.rootNode, lang)) {
    const unit = topLevelUnit(child, lang);
    if (!unit) continue;
    const goOwner = lang === 'go' && child.type === 'method_declaration' ? goReceiverType(child) : null;
    // `int Cart::total() { … }`: a C++ method defined outside its class belongs to it.
    const cppOwner = lang === 'cpp' && unit.kind !== 'class' ? cppFunctionName(innermost(unit.node)).owner : undefined;
    const dotted = /^([A-Za-z_$][\w$]*)\.(?:prototype\.)?[A-Za-z_$][\w$]*$/.exec(unit.name)?.[1];
    const owner = goOwner ?? cppOwner ?? dotted;
    out.push({ unit, depth: 0, ...(owner ? { owner } : {}) });
    const className = unit.name.replace(/\s*[[<].*$/s, '');
    if (unit.kind === 'class') for (const member of membersOf(unit.node, lang)) out.push({ unit: member, depth: 1, ...(className ? { owner: className } : {}) });
  }
  return out;
}

/** The unit a top-level statement holds: a declaration, `export …`, `const f = …`, `exports.f = function …`. */
function topLevelUnit(statement: Node, lang: LanguageId): Unit | null {
  const direct = unitOf(statement, lang);
  if (direct) return direct;
  const inner = innerDeclaration(statement) ?? rubyModifiedDef(statement, lang);
  return inner ? unitOf(inner, lang) : null;
}

function innerDeclaration(statement: Node): Node | null {
  switch (statement.type) {
    case 'export_statement':
      return statement.childForFieldName('declaration') ?? innerValue(statement.namedChildren.find((c) => c?.type === 'lexical_declaration') ?? null);
    case 'lexical_declaration':
    case 'variable_declaration':
      return innerValue(statement);
    case 'expression_statement': {
      const expr = statement.namedChild(0);
      return expr?.type === 'assignment_expression' ? expr.childForFieldName('right') : null;
    }
    case 'decorated_definition':
      return statement.childForFieldName('definition');
    case 'template_declaration':
      return statement.namedChildren.find((c) => c?.type === 'function_definition' || c?.type === 'class_specifier' || c?.type === 'struct_specifier') ?? null;
    default:
      return null;
  }
}

/**
 * Ruby's `private def helper(x) … end` (also protected, public, module_function, private_class_method): a call whose
 * argument is the method it declares. Without this, every such method would be missing from the file's units.
 */
function rubyModifiedDef(statement: Node, lang: LanguageId): Node | null {
  if (lang !== 'ruby' || statement.type !== 'call' || statement.childForFieldName('receiver')) return null;
  if (!/^(?:private|protected|public|module_function|private_class_method|public_class_method)$/.test(statement.childForFieldName('method')?.text ?? '')) return null;
  const def = statement.childForFieldName('arguments')?.namedChild(0);
  return def && (def.type === 'method' || def.type === 'singleton_method') ? def : null;
}

function innerValue(declaration: Node | null): Node | null {
  if (!declaration) return null;
  const declarator = declaration.namedChildren.find((c) => c?.type === 'variable_declarator');
  return declarator?.childForFieldName('value') ?? null;
}

const BODIES = new Set(['class_body', 'block', 'declaration_list', 'interface_body', 'object_type', 'field_declaration_list', 'body_statement', 'enum_body_declarations']);

/** The declaration a template wraps (`template <class T> T max(…)`): where its name and declarator are. */
function innermost(node: Node): Node {
  return node.type === 'template_declaration' ? node.namedChildren.find((c) => c?.type === 'function_definition') ?? node : node;
}

function membersOf(classNode: Node, lang: LanguageId): Unit[] {
  const body = findBody(classNode);
  if (!body) return [];
  const out: Unit[] = [];
  for (const child of body.namedChildren) {
    if (!child) continue;
    const inner = child.type === 'decorated_definition' ? child.childForFieldName('definition') : child.type === 'template_declaration' ? innermost(child) : rubyModifiedDef(child, lang);
    const unit = unitOf(child, lang) ?? (inner ? unitOf(inner, lang) : null);
    if (unit && unit.kind !== 'class') out.push(unit);
  }
  return out;
}

function findBody(node: Node): Node | null {
  const body = node.childForFieldName('body');
  if (body) return body;
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (BODIES.has(child.type)) return child;
    const inner = findBody(child);
    if (inner) return inner;
  }
  return null;
}

/** The top-level statements that import (and CommonJS requires), as 1-based line ranges in file order. */
export function importRanges(tree: Tree, lang: LanguageId): Array<[number, number]> {
  const syntax = syntaxOf(lang);
  const js = lang === 'javascript' || lang === 'typescript' || lang === 'tsx';
  const out: Array<[number, number]> = [];
  for (const child of topLevelNodes(tree.rootNode, lang)) {
    const isImport = syntax.imports.has(child.type) || (js && isRequire(child)) || (lang === 'rust' && child.type === 'mod_item' && !child.childForFieldName('body')) || isLoad(child, lang);
    if (!isImport) continue;
    // A preprocessor line's node takes its newline: it ends at column 0 of the next line.
    const [start, end] = [child.startPosition.row + 1, child.endPosition.row + (child.endPosition.column === 0 && child.endPosition.row > child.startPosition.row ? 0 : 1)];
    const last = out[out.length - 1];
    // Imports a blank line apart read as one block.
    if (last && start <= last[1] + 2) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

/** Ruby's `require`/`require_relative` and PHP's `require`/`include` at the top of a file: its imports. */
function isLoad(statement: Node, lang: LanguageId): boolean {
  if (lang === 'ruby') return statement.type === 'call' && !statement.childForFieldName('receiver') && /^(?:require|require_relative|load|autoload)$/.test(statement.childForFieldName('method')?.text ?? '');
  if (lang === 'php') return statement.type === 'expression_statement' && /^(?:require|include)(?:_once)?_expression$/.test(statement.namedChild(0)?.type ?? '');
  return false;
}

/**
 * The names a unit calls: plain ones (`helper(…)`: a test's helpers in its own file) and, with `members`, method
 * names too (`new Command().parse(…)`: what to look for in the files the test reaches).
 */
export function calledNames(node: Node, lang: LanguageId, members = false): string[] {
  const names = new Set<string>();
  for (const call of node.descendantsOfType([...CALL_TYPES[lang]])) {
    const site = call && callSite(call, lang);
    if (site?.name && (members || (!site.receiver && !site.keyword))) names.add(site.name);
  }
  return [...names];
}

/** Identifiers, as each grammar names a reference to a value (a constant, a function passed along, a table). */
function identifierTypes(lang: LanguageId): string[] {
  if (lang === 'ruby') return ['identifier', 'constant'];
  if (lang === 'php') return ['name'];
  return ['identifier'];
}

/**
 * The names a unit refers to: what it calls (methods too) and the plain identifiers it reads — `options.decode ||
 * decode` passes `decode` on without calling it, `{Week, "1 %s", 1}` reads a constant. What they name is looked up
 * among the declarations of the files the failing tests reach; a local variable that matches none costs nothing.
 */
export function referencedNames(node: Node, lang: LanguageId): string[] {
  // Typed calls (`Loader.readScalar`) first: they are followed before the same names matched anywhere.
  const names = new Set([...typedCalls(node, lang), ...calledNames(node, lang, true)]);
  for (const id of node.descendantsOfType(identifierTypes(lang))) if (id && id.text.length > 1) names.add(id.text);
  return [...names];
}

/**
 * Top-level statements that declare values rather than functions or classes — `const MAX = 10`, Go's `const ( … )`
 * block, a Python module constant, Rust's `const`/`static` — each with the names it declares. A unit (a function held
 * in a `const`) is not one of them: declarations() has it.
 */
export function valueStatements(tree: Tree, lang: LanguageId): Array<{ node: Node; names: string[] }> {
  const out: Array<{ node: Node; names: string[] }> = [];
  for (const child of topLevelNodes(tree.rootNode, lang)) {
    if (topLevelUnit(child, lang)) continue;
    const names = declaredValueNames(child, lang);
    if (names.length) out.push({ node: child, names });
  }
  return out;
}

function declaredValueNames(statement: Node, lang: LanguageId): string[] {
  const texts = (nodes: Array<Node | null>) => nodes.filter((n): n is Node => n !== null && n.type === 'identifier').map((n) => n.text);
  switch (lang) {
    case 'javascript':
    case 'typescript':
    case 'tsx': {
      const decl = statement.type === 'export_statement' ? statement.namedChildren.find((c) => c?.type === 'lexical_declaration' || c?.type === 'variable_declaration') ?? null : statement;
      if (!decl || (decl.type !== 'lexical_declaration' && decl.type !== 'variable_declaration')) return [];
      return texts(decl.namedChildren.filter((c) => c?.type === 'variable_declarator').map((d) => d!.childForFieldName('name')));
    }
    case 'python': {
      const assign = statement.type === 'expression_statement' ? statement.namedChild(0) : null;
      return assign?.type === 'assignment' ? texts([assign.childForFieldName('left')]) : [];
    }
    case 'go':
      if (statement.type !== 'const_declaration' && statement.type !== 'var_declaration') return [];
      return texts(statement.descendantsOfType(['const_spec', 'var_spec']).flatMap((spec) => spec ? spec.childrenForFieldName('name') : []));
    case 'rust':
      return statement.type === 'const_item' || statement.type === 'static_item' ? texts([statement.childForFieldName('name')]) : [];
    case 'ruby':
      // `MAX = 3` inside a module: a constant.
      return statement.type === 'assignment' && statement.childForFieldName('left')?.type === 'constant' ? [statement.childForFieldName('left')!.text] : [];
    case 'php':
      return statement.type === 'const_declaration' ? statement.namedChildren.flatMap((e) => (e?.type === 'const_element' && e.namedChild(0) ? [e.namedChild(0)!.text] : [])) : [];
    case 'cpp':
      if (statement.type === 'preproc_def') return [statement.childForFieldName('name')?.text ?? ''].filter(Boolean);
      return statement.type === 'declaration' ? statement.childrenForFieldName('declarator').flatMap((d) => (d?.type === 'init_declarator' && d.childForFieldName('declarator')?.type === 'identifier' ? [d.childForFieldName('declarator')!.text] : [])) : [];
    default:
      return [];
  }
}
