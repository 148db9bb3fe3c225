// The tree-sitter grammars import extraction parses with: VS Code's own WASM builds (@vscode/tree-sitter-wasm), loaded
// once per process. Kept small and private to imports/ until src/context/parse/ offers one shared loader.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Language, Parser } from '@vscode/tree-sitter-wasm';

export type Grammar = 'javascript' | 'typescript' | 'tsx' | 'python' | 'go' | 'rust';

/** The folder holding tree-sitter.wasm and the grammars: beside the bundle once built, else the installed package. */
function wasmDir(): string {
  const candidates = [path.join(__dirname, 'tree-sitter'), path.join(__dirname, 'wasm')];
  try {
    candidates.push(path.dirname(require.resolve('@vscode/tree-sitter-wasm/wasm/tree-sitter.wasm')));
  } catch {
    // bundled without node_modules: only the folders beside the bundle count
  }
  const found = candidates.find((d) => fs.existsSync(path.join(d, 'tree-sitter.wasm')));
  if (!found) throw new Error('The tree-sitter grammars are missing beside Greenloop (tree-sitter.wasm not found); reinstall Greenloop.');
  return found;
}

let ready: Promise<string> | null = null;
const languages = new Map<Grammar, Promise<Language>>();

async function init(): Promise<string> {
  const dir = wasmDir();
  await Parser.init({ locateFile: (file: string) => path.join(dir, file) });
  return dir;
}

/** A parser for `grammar`; callers delete() it when done (WASM memory is not garbage-collected). */
export async function parserFor(grammar: Grammar): Promise<Parser> {
  ready ??= init();
  const dir = await ready;
  let lang = languages.get(grammar);
  if (!lang) {
    lang = Language.load(fs.readFileSync(path.join(dir, `tree-sitter-${grammar}.wasm`)));
    languages.set(grammar, lang);
  }
  const parser = new Parser();
  parser.setLanguage(await lang);
  return parser;
}

/** The grammar for a source file's name, or null when imports of that kind of file are not followed. */
export function grammarOf(rel: string): Grammar | null {
  if (/\.(?:[cm]?js|jsx)$/.test(rel)) return 'javascript';
  if (/\.tsx$/.test(rel)) return 'tsx';
  if (/\.[cm]?ts$/.test(rel)) return 'typescript';
  if (rel.endsWith('.py')) return 'python';
  if (rel.endsWith('.go')) return 'go';
  if (rel.endsWith('.rs')) return 'rust';
  return null;
}
