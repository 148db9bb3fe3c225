// The tree-sitter grammars import extraction parses with: VS Code's own WASM builds (@vscode/tree-sitter-wasm), loaded
// once per process. Private to imports/ until it meets src/context/parse/grammars.ts, which offers the same two
// functions (languageOf, withTree): this file then becomes a re-export of that one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Language, Parser } from '@vscode/tree-sitter-wasm';
import type { Tree } from '@vscode/tree-sitter-wasm';

export type LanguageId = 'javascript' | 'typescript' | 'tsx' | 'python' | 'go' | 'rust';

const BY_EXTENSION: Record<string, LanguageId> = {
  '.js': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript', '.jsx': 'javascript',
  '.ts': 'typescript', '.mts': 'typescript', '.cts': 'typescript',
  '.tsx': 'tsx',
  '.py': 'python', '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
};

/** The grammar a file is parsed with, by its extension; null: imports of that kind of file are not followed. */
export function languageOf(rel: string): LanguageId | null {
  return BY_EXTENSION[path.extname(rel).toLowerCase()] ?? null;
}

/** dist/tree-sitter beside the bundle, else the installed package (tests and tools under tsx). */
function wasmDir(): string | null {
  const dirs = [path.join(__dirname, 'tree-sitter')];
  try {
    dirs.push(path.dirname(require.resolve('@vscode/tree-sitter-wasm/wasm/tree-sitter.wasm')));
  } catch {
    // bundled without node_modules: only the folder beside the bundle counts
  }
  return dirs.find((d) => fs.existsSync(path.join(d, 'tree-sitter.wasm'))) ?? null;
}

let runtime: Promise<string | null> | null = null;
const languages = new Map<LanguageId, Promise<Language | null>>();

function loadLanguage(id: LanguageId): Promise<Language | null> {
  runtime ??= (async () => {
    const dir = wasmDir();
    if (!dir) return null;
    await Parser.init({ locateFile: (file: string) => path.join(dir, file) });
    return dir;
  })().catch(() => null);
  let loaded = languages.get(id);
  if (!loaded) {
    loaded = runtime.then(async (dir) => (dir ? Language.load(new Uint8Array(await fs.promises.readFile(path.join(dir, `tree-sitter-${id}.wasm`)))) : null)).catch(() => null);
    languages.set(id, loaded);
  }
  return loaded;
}

/** The syntax tree of `text`, handed to `use` and freed after (WASM memory is not garbage-collected); null without a grammar. */
export async function withTree<T>(id: LanguageId, text: string, use: (tree: Tree) => T): Promise<T | null> {
  const language = await loadLanguage(id);
  if (!language) return null;
  const parser = new Parser();
  let tree: Tree | null = null;
  try {
    parser.setLanguage(language);
    tree = parser.parse(text);
    return tree ? use(tree) : null;
  } finally {
    tree?.delete();
    parser.delete();
  }
}
