// One line per declaration: the outline of what a shown file holds beyond its shown regions, and (exported only) the
// Aider-style map of a reached file, so the model knows what exists without reading it.
import type { Node, Tree } from '@vscode/tree-sitter-wasm';
import type { LanguageId } from '../parse/grammars';
import { declarations, linesOf } from '../parse/units';
import { isExported, isPrivate, topLevelNodes } from '../parse/syntax';

const MAX_SIGNATURE = 160;

export interface Span {
  startLine: number;
  endLine: number;
}

/** Signature lines of the file's declarations, members indented under their class; none inside `shown`. */
export function outlineOf(tree: Tree, text: string, lang: LanguageId, exportedOnly: boolean, shown: readonly Span[] = []): string[] {
  const out: string[] = [];
  const commonJs = lang === 'javascript' || lang === 'typescript' ? commonJsExports(tree) : new Set<string>();
  let parentExported = false;
  for (const { unit, depth } of declarations(tree, lang)) {
    if (depth === 0) parentExported = isExported(unit.node, unit.name, lang) || commonJs.has(unit.name);
    if (exportedOnly && (!parentExported || (depth > 0 && isPrivateMember(unit.name, unit.node, lang)))) continue;
    if (unit.kind === 'test') continue;
    const [start, end] = linesOf(unit.node, lang);
    if (shown.some((s) => s.startLine <= start && s.endLine >= end)) continue;
    out.push(`${'  '.repeat(depth)}${signature(unit.node)}`);
  }
  // A C or C++ header is its prototypes: `int add(int a, int b);` is what its includers call.
  if (lang === 'cpp') {
    for (const node of topLevelNodes(tree.rootNode, lang)) {
      if (node.type !== 'declaration' || node.childForFieldName('declarator')?.type !== 'function_declarator') continue;
      if (exportedOnly && !isExported(node, '', lang)) continue;
      if (shown.some((s) => s.startLine <= node.startPosition.row + 1 && s.endLine >= node.endPosition.row + 1)) continue;
      out.push(node.text.replace(/\s+/g, ' ').replace(/\s*;$/, '').slice(0, MAX_SIGNATURE));
    }
  }
  return out;
}

/** A declaration up to its body (`function total(items)`, `class Cart extends Base`), on one line. */
function signature(node: Node): string {
  const decl = node.type === 'decorated_definition' ? node.childForFieldName('definition') ?? node : node;
  const body = bodyOf(decl, 3);
  const head = body ? decl.text.slice(0, body.startIndex - decl.startIndex) : decl.text.split('\n')[0]!;
  const s = head.replace(/\s+/g, ' ').trim().replace(/\s*(=>|[:={])$/, (m) => (m.trim() === '=>' ? ' =>' : ''));
  return s.length > MAX_SIGNATURE ? `${s.slice(0, MAX_SIGNATURE)}…` : s;
}

/** The body of the function or class a node is or holds (`const f = () => {…}`): where its signature ends. */
function bodyOf(node: Node, depth: number): Node | null {
  const body = node.childForFieldName('body');
  if (body) return body;
  if (depth === 0) return null;
  for (const child of node.namedChildren) {
    const found = child && bodyOf(child, depth - 1);
    if (found) return found;
  }
  return null;
}

/** Names CommonJS exports: `module.exports = { a, b: c }`, `module.exports = Name`, `exports.x = …`. */
function commonJsExports(tree: Tree): Set<string> {
  const names = new Set<string>();
  for (const statement of tree.rootNode.namedChildren) {
    const expr = statement?.type === 'expression_statement' ? statement.namedChild(0) : null;
    if (expr?.type !== 'assignment_expression') continue;
    const left = expr.childForFieldName('left');
    const right = expr.childForFieldName('right');
    if (left?.text !== 'module.exports' || !right) continue;
    if (right.type === 'identifier') names.add(right.text);
    for (const prop of right.type === 'object' ? right.namedChildren : []) {
      if (prop?.type === 'shorthand_property_identifier') names.add(prop.text);
      if (prop?.type === 'pair') names.add(prop.childForFieldName('value')?.text ?? '');
    }
  }
  return names;
}

/** A Ruby method below a bare `private` (or `protected`) line of its class. */
function afterPrivate(node: Node): boolean {
  for (let prev = node.previousNamedSibling; prev; prev = prev.previousNamedSibling) {
    if (prev.type === 'identifier' && (prev.text === 'private' || prev.text === 'protected')) return true;
    if (prev.type === 'identifier' && prev.text === 'public') return false;
  }
  return false;
}

function isPrivateMember(name: string, node: Node, lang: LanguageId): boolean {
  if (lang === 'rust') return !node.namedChildren.some((c) => c?.type === 'visibility_modifier');
  if (lang === 'go') return !/^[A-Z]/.test(name);
  if (lang === 'java' || lang === 'csharp' || lang === 'php') return isPrivate(node);
  if (lang === 'ruby') return name.startsWith('_') || afterPrivate(node);
  return name.startsWith('_') || name.startsWith('#') || node.namedChildren.some((c) => c?.type === 'accessibility_modifier' && c.text === 'private');
}
