// One resolver per language: how its files' imports are read and where they land. A new language is one more here.
import type { Tree } from '@vscode/tree-sitter-wasm';
import type { FileFacts, ImportRef } from './facts';
import type { Grammar } from './grammars';
import { jsFacts } from './jsFacts';
import { JsResolver } from './jsResolve';
import type { WorkspaceFiles } from './workspaceFiles';

export interface Resolver {
  facts(tree: Tree): FileFacts;
  /** Workspace files `ref` reaches from `from` (a Go import: every file of the package). */
  resolve(ref: ImportRef, from: string): string[];
  /** Files a file reaches without naming them (a Go test's own package, a Rust integration test's crate). */
  companions?(from: string, facts: FileFacts): string[];
}

export function languageFor(grammar: Grammar, files: WorkspaceFiles): Resolver {
  switch (grammar) {
    case 'javascript':
    case 'typescript':
    case 'tsx': {
      const js = new JsResolver(files);
      return { facts: jsFacts, resolve: (ref, from) => js.resolve(ref, from) };
    }
    default:
      return { facts: () => ({ imports: [], defines: [], calls: [] }), resolve: () => [] };
  }
}
