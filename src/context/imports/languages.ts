// One resolver per language: how its files' imports are read and where they land. A new language is one more here.
import type { Tree } from '@vscode/tree-sitter-wasm';
import type { FileFacts, ImportRef } from './facts';
import type { LanguageId } from './grammars';
import { goFacts, GoResolver } from './golang';
import { jsFacts } from './jsFacts';
import { JsResolver } from './jsResolve';
import { pythonFacts, PythonResolver } from './python';
import { rustFacts, RustResolver } from './rust';
import type { WorkspaceFiles } from './workspaceFiles';
import { javaFacts, JavaResolver } from './java';
import { cFamilyFacts, CFamilyResolver } from './cfamily';
import { csharpFacts, CSharpResolver } from './csharp';
import { rubyFacts, RubyResolver } from './ruby';
import { phpFacts, PhpResolver } from './php';

export interface Resolver {
  facts(tree: Tree): FileFacts;
  /** Workspace files `ref` reaches from `from` (a Go import: every file of the package). */
  resolve(ref: ImportRef, from: string): string[];
  /** Files a file reaches without naming them (a Go test's own package, a Rust integration test's crate). */
  companions?(from: string, facts: FileFacts): string[];
}

export function languageFor(grammar: LanguageId, files: WorkspaceFiles): Resolver {
  switch (grammar) {
    case 'javascript':
    case 'typescript':
    case 'tsx': {
      const js = new JsResolver(files);
      return { facts: jsFacts, resolve: (ref, from) => js.resolve(ref, from) };
    }
    case 'python': {
      const py = new PythonResolver(files);
      return { facts: pythonFacts, resolve: (ref, from) => py.resolve(ref, from) };
    }
    case 'go': {
      const go = new GoResolver(files);
      return { facts: goFacts, resolve: (ref, from) => go.resolve(ref, from), companions: (from) => go.companions(from) };
    }
    case 'rust': {
      const rs = new RustResolver(files);
      return { facts: rustFacts, resolve: (ref, from) => rs.resolve(ref, from), companions: (from) => rs.companions(from) };
    }
    case 'java': {
      const java = new JavaResolver(files);
      return { facts: javaFacts, resolve: (ref, from) => java.resolve(ref, from) };
    }
    case 'cpp': {
      const c = new CFamilyResolver(files);
      return { facts: cFamilyFacts, resolve: (ref, from) => c.resolve(ref, from) };
    }
    case 'csharp': {
      const cs = new CSharpResolver(files);
      return { facts: csharpFacts, resolve: (ref, from) => cs.resolve(ref, from) };
    }
    case 'ruby': {
      const rb = new RubyResolver(files);
      return { facts: rubyFacts, resolve: (ref, from) => rb.resolve(ref, from), companions: (from) => rb.companions(from) };
    }
    case 'php': {
      const php = new PhpResolver(files);
      return { facts: phpFacts, resolve: (ref, from) => php.resolve(ref, from) };
    }
  }
}
