// Tree-sitter, as VS Code ships it (@vscode/tree-sitter-wasm): the runtime and one WASM grammar per language, loaded
// once per process on first use. The build copies the WASM files to dist/tree-sitter/ (esbuild.js); under tsx they
// are read from node_modules. C files are read with the C++ grammar (no C grammar ships). A grammar that cannot be loaded leaves its files unparsed (a window of lines instead).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Language, Parser } from '@vscode/tree-sitter-wasm';
import type { Tree } from '@vscode/tree-sitter-wasm';

export type LanguageId = 'javascript' | 'typescript' | 'tsx' | 'python' | 'go' | 'rust' | 'java' | 'cpp' | 'csharp' | 'ruby' | 'php';

const BY_EXTENSION: Record<string, LanguageId> = {
  '.js': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript', '.jsx': 'javascript',
  '.ts': 'typescript', '.mts': 'typescript', '.cts': 'typescript',
  '.tsx': 'tsx',
  '.py': 'python', '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.java': 'java',
  // No C grammar ships with VS Code's set: C++'s parses C (functions, structs, includes, calls) as well.
  '.c': 'cpp', '.h': 'cpp', '.cc': 'cpp', '.cpp': 'cpp', '.cxx': 'cpp', '.c++': 'cpp', '.hh': 'cpp', '.hpp': 'cpp', '.hxx': 'cpp', '.ipp': 'cpp', '.inl': 'cpp',
  '.cs': 'csharp',
  '.rb': 'ruby', '.rake': 'ruby',
  '.php': 'php',
};

/** The WASM file a grammar ships as, where its name is not the language's id. */
const WASM_NAME: Partial<Record<LanguageId, string>> = { csharp: 'c-sharp' };

/** The grammar a file is parsed with, by its extension; null: a language Greenloop cannot cut into functions. */
export function languageOf(rel: string): LanguageId | null {
  return BY_EXTENSION[path.extname(rel).toLowerCase()] ?? null;
}

/** dist/tree-sitter beside the bundle, else the package in node_modules (tests and tools under tsx). */
function wasmDirs(): string[] {
  return [
    path.join(__dirname, 'tree-sitter'),
    path.join(__dirname, '..', '..', '..', 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm'),
    path.join(__dirname, '..', 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm'),
  ];
}

export function wasmDir(): string | null {
  return wasmDirs().find((d) => fs.existsSync(path.join(d, 'tree-sitter.wasm'))) ?? null;
}

let runtime: Promise<string | null> | null = null;
const languages = new Map<LanguageId, Promise<Language | null>>();

function initRuntime(): Promise<string | null> {
  runtime ??= (async () => {
    const dir = wasmDir();
    if (!dir) return null;
    await Parser.init({ locateFile: (file: string) => path.join(dir, file) });
    return dir;
  })().catch(() => null);
  return runtime;
}

function loadLanguage(id: LanguageId): Promise<Language | null> {
  let loaded = languages.get(id);
  if (!loaded) {
    loaded = initRuntime().then(async (dir) => (dir ? Language.load(new Uint8Array(await fs.promises.readFile(path.join(dir, `tree-sitter-${WASM_NAME[id] ?? id}.wasm`)))) : null)).catch(() => null);
    languages.set(id, loaded);
  }
  return loaded;
}

/**
 * The syntax tree of `text`, handed to `use` and freed after (trees live in WASM memory, not the JS heap); null when
 * the language has no grammar here or the parser gives up.
 */
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
