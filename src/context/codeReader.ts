// The CodeReader the session hands the engine: files read from the workspace, cut into functions and outlined with
// tree-sitter. Reach (which files the failing tests' imports lead to) is given by the caller's resolver; without
// one the engine follows one hop of imports itself.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CodeReader, CodeRegion, FileOutline, LexicalHit, ReachedFile } from '../ports/codeContext';
import { languageOf, withTree } from './parse/grammars';
import { regionsOf } from './slice/regions';
import { outlineOf } from './map/outline';
import { declarations, linesOf, MAX_UNIT_LINES } from './parse/units';
import { rankByWords, type LexicalUnit } from './rank/lexical';

/** A folder with more files than this is not searched for a test's declaration. */
const MAX_SIBLINGS = 200;

/** Larger files are generated or minified code: not parsed. */
const MAX_PARSED_BYTES = 2 * 1024 * 1024;

export interface CodeReaderOptions {
  /** The workspace, real path; every path asked of the reader is relative to it. */
  cwd: string;
  reach?: CodeReader['reach'];
}

export function createCodeReader(opts: CodeReaderOptions): CodeReader {
  return {
    reach: opts.reach ?? (async (): Promise<ReachedFile[]> => []),
    async regions(rel, lines, symbols = []): Promise<CodeRegion[]> {
      const source = await parsable(opts.cwd, rel);
      if (!source) return [];
      return (await withTree(source.lang, source.text, (tree) => regionsOf(tree, rel, source.text, { lines, symbols }, source.lang))) ?? [];
    },
    async declaredNear(near, names): Promise<Array<{ path: string; line: number; name: string }>> {
      const lang = languageOf(near);
      if (!lang || !names.length) return [];
      const dir = path.posix.dirname(near);
      let siblings: string[];
      try {
        siblings = fs.readdirSync(path.join(opts.cwd, dir)).filter((f) => languageOf(f) === lang).sort().slice(0, MAX_SIBLINGS);
      } catch {
        return [];
      }
      const files = [near, ...siblings.map((f) => (dir === '.' ? f : `${dir}/${f}`)).filter((f) => f !== near)];
      const found = new Map<string, { path: string; line: number; name: string }>();
      for (const rel of files) {
        if (found.size === names.length) break;
        const source = await parsable(opts.cwd, rel);
        if (!source) continue;
        await withTree(source.lang, source.text, (tree) => {
          for (const { unit } of declarations(tree, source.lang)) {
            if (names.includes(unit.name) && !found.has(unit.name)) found.set(unit.name, { path: rel, line: linesOf(unit.node, source.lang)[0], name: unit.name });
          }
        });
      }
      return [...found.values()];
    },
    async lexical(paths, query, limit): Promise<LexicalHit[]> {
      const units: LexicalUnit[] = [];
      for (const rel of paths) {
        const source = await parsable(opts.cwd, rel);
        if (!source) continue;
        const lines = source.text.split('\n');
        await withTree(source.lang, source.text, (tree) => {
          for (const { unit } of declarations(tree, source.lang)) {
            if (unit.kind !== 'function' || !unit.name) continue;
            const [start, end] = linesOf(unit.node, source.lang);
            if (end - start >= MAX_UNIT_LINES) continue;
            units.push({ path: rel, line: start, endLine: end, name: unit.name, text: lines.slice(start - 1, end).join('\n') });
          }
        });
      }
      return rankByWords(units, query, limit);
    },
    async outline(rel, exportedOnly, shown = []): Promise<FileOutline> {
      const source = await parsable(opts.cwd, rel);
      const lines = source ? await withTree(source.lang, source.text, (tree) => outlineOf(tree, source.text, source.lang, exportedOnly, shown)) : null;
      return { path: rel, lines: lines ?? [] };
    },
  };
}

/**
 * The file's text and grammar, when it is a regular file inside the workspace (after links) in a language with a
 * grammar and not too big. Opened without blocking: a FIFO swapped in for the file is refused, never waited on.
 */
async function parsable(cwd: string, rel: string): Promise<{ text: string; lang: NonNullable<ReturnType<typeof languageOf>> } | null> {
  const lang = languageOf(rel);
  if (!lang) return null;
  let handle: fs.promises.FileHandle | null = null;
  try {
    const real = await fs.promises.realpath(path.resolve(cwd, rel));
    const inside = path.relative(await fs.promises.realpath(cwd), real);
    if (!inside || inside.startsWith('..') || path.isAbsolute(inside)) return null;
    handle = await fs.promises.open(real, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > MAX_PARSED_BYTES) return null;
    const text = (await handle.readFile('utf8')).replace(/\r\n/g, '\n');
    return text.includes('\u0000') ? null : { text, lang };
  } catch {
    return null;
  } finally {
    await handle?.close();
  }
}
