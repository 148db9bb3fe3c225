// What one source file says about where it goes: the modules it imports, the names it uses from each, and the names
// it defines (what a failing test's calls can land on). Every language's extractor fills the same shape.
import type { Node, Tree } from '@vscode/tree-sitter-wasm';

export interface ImportRef {
  /** As written: './x.js', '..', 'pkg/sub', 'a.b.c', 'crate::a::b', 'example.com/m/pkg'. */
  spec: string;
  /** Resolved with `require` conditions (CommonJS) rather than `import` ones. */
  require?: boolean;
  /** Names the file uses from the module, when the extractor could tell. */
  names: string[];
  /** The module's names pass on to whoever imports this file (`export * from`, `module.exports = require(…)`, `pub use`). */
  passes?: boolean;
  /** Python's `from . import x` and `from a import b`: each name may itself be a module (a file) of the package. */
  submodules?: string[];
  /** Rust: the `#[path]` a `mod` declaration gives. */
  pathAttr?: string;
}

export interface FileFacts {
  imports: ImportRef[];
  /** Functions, classes, methods, constants and exported names declared in the file. */
  defines: string[];
  /** Names the file calls or constructs (`f()`, `x.f()`, `new C()`): in a test, what it exercises. */
  calls: string[];
}

/**
 * The nodes under `root` of the given types, depth first, without recursion (a deeply nested file must not exhaust
 * the stack); only those are made into objects, which is most of the cost of a walk.
 */
export function* nodes(root: Node, types: ReadonlySet<string>): Generator<Node> {
  const cursor = root.walk();
  let down = true;
  try {
    for (;;) {
      if (down && types.has(cursor.nodeType)) yield cursor.currentNode;
      if (down && cursor.gotoFirstChild()) continue;
      if (cursor.gotoNextSibling()) {
        down = true;
        continue;
      }
      if (!cursor.gotoParent()) break;
      down = false;
    }
  } finally {
    cursor.delete();
  }
}

/** A string literal's content, or null for a template with substitutions or anything else. */
export function stringValue(node: Node | null | undefined): string | null {
  if (!node) return null;
  if (node.type === 'string' || node.type === 'interpreted_string_literal' || node.type === 'raw_string_literal' || node.type === 'string_literal') {
    const t = node.text;
    return t.length >= 2 ? t.slice(1, -1) : null;
  }
  if (node.type === 'template_string' && node.namedChildCount <= 1 && !node.namedChildren.some((c) => c?.type === 'template_substitution')) {
    return node.text.slice(1, -1);
  }
  return null;
}

export function uniq(xs: Iterable<string>): string[] {
  return [...new Set(xs)];
}

export type Extractor = (tree: Tree) => FileFacts;
