// Import extraction parses with the one tree-sitter loader of src/context/parse (VS Code's WASM grammars).
export { languageOf, withTree } from '../parse/grammars';
export type { LanguageId } from '../parse/grammars';
