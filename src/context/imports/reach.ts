// Walks from the failing tests' files through their imports, hop by hop, and ranks what it reaches: nearer first,
// and among files as near, those that define what the tests call (a re-export index passes the test's names on).
import type { ReachedFile } from '../../ports/codeContext';
import type { FileFacts, ImportRef } from './facts';
import { grammarOf, parserFor } from './grammars';
import type { Grammar } from './grammars';
import { languageFor } from './languages';
import type { Resolver } from './languages';
import { WorkspaceFiles } from './workspaceFiles';
import type { ReadGate } from './workspaceFiles';

export interface ReachOptions {
  /** Import hops to follow from the test files (0: the test files only). */
  hops: number;
  /** The path policy: every file read passes it. */
  gate: ReadGate;
  /** Most files to return (tests included); the walk stops adding once it has them. */
  maxFiles?: number;
}

/** Symbols named per reached file, at most: the map and the ranking need the first few, not every one. */
const MAX_SYMBOLS = 24;

interface Entry {
  path: string;
  distance: number;
  order: number;
  symbols: Set<string>;
  facts: FileFacts | null;
}

/** Files reachable from `testFiles` (workspace-relative) through imports, at most `hops` away, best first. */
export async function reachFrom(testFiles: readonly string[], workspace: string, opts: ReachOptions): Promise<ReachedFile[]> {
  const files = new WorkspaceFiles(workspace, opts.gate);
  const maxFiles = opts.maxFiles ?? 200;
  const reader = new FactReader(files);
  const entries = new Map<string, Entry>();
  const add = (rel: string, distance: number): Entry | null => {
    const known = entries.get(rel);
    if (known) return known;
    if (entries.size >= maxFiles) return null;
    const entry: Entry = { path: rel, distance, order: entries.size, symbols: new Set(), facts: null };
    entries.set(rel, entry);
    return entry;
  };
  let level: Entry[] = [];
  for (const t of testFiles) {
    const rel = files.norm(t);
    if (rel === null || !files.isFile(rel)) continue;
    const e = add(rel, 0);
    if (e && !level.includes(e)) level.push(e);
  }
  const tests = [...level];
  try {
    for (let d = 0; d < opts.hops && level.length; d++) {
      const next: Entry[] = [];
      for (const from of level) {
        from.facts ??= await reader.facts(from.path);
        const lang = reader.resolverFor(from.path);
        if (!from.facts || !lang) continue;
        for (const { target, ref } of edges(lang, from.path, from.facts)) {
          const names = ref.passes ? [...ref.names, ...from.symbols] : ref.names;
          const isNew = !entries.has(target);
          const to = add(target, d + 1);
          if (!to) continue;
          if (to.distance > from.distance) for (const n of names) to.symbols.add(n);
          if (isNew) next.push(to);
        }
      }
      level = next;
    }
    for (const e of entries.values()) e.facts ??= await reader.facts(e.path);
  } finally {
    reader.dispose();
  }
  const testCalls = new Set(tests.flatMap((t) => [...(t.facts?.calls ?? []), ...(t.facts?.imports ?? []).flatMap((i) => i.names)]));
  const ranked = [...entries.values()].map((e) => {
    const defines = new Set(e.facts?.defines ?? []);
    const forTest = [...defines].filter((n) => testCalls.has(n)).length;
    const forImporter = [...e.symbols].filter((n) => defines.has(n)).length;
    return { e, forTest, forImporter };
  });
  ranked.sort((a, b) => a.e.distance - b.e.distance || b.forTest - a.forTest || b.forImporter - a.forImporter || a.e.order - b.e.order);
  return ranked.map(({ e }) => {
    const defines = new Set(e.facts?.defines ?? []);
    // Names this file really defines first: they are where a call lands.
    const symbols = [...e.symbols].sort((a, b) => Number(defines.has(b)) - Number(defines.has(a))).slice(0, MAX_SYMBOLS);
    return symbols.length ? { path: e.path, distance: e.distance, symbols } : { path: e.path, distance: e.distance };
  });
}

/** Each import's target files, plus the files a language adds by itself (a Go package's other files). */
function* edges(lang: Resolver, from: string, facts: FileFacts): Generator<{ target: string; ref: ImportRef }> {
  for (const ref of facts.imports) for (const target of lang.resolve(ref, from)) if (target !== from) yield { target, ref };
  for (const target of lang.companions?.(from, facts) ?? []) if (target !== from) yield { target, ref: { spec: '', names: facts.calls } };
}

/** Parses each file once, with one parser per grammar for the walk, freed at its end. */
class FactReader {
  private readonly parsers = new Map<Grammar, Awaited<ReturnType<typeof parserFor>>>();
  private readonly resolvers = new Map<Grammar, Resolver>();

  constructor(private readonly files: WorkspaceFiles) {}

  resolverFor(rel: string): Resolver | null {
    const grammar = grammarOf(rel);
    if (!grammar) return null;
    let r = this.resolvers.get(grammar);
    if (!r) {
      r = languageFor(grammar, this.files);
      this.resolvers.set(grammar, r);
    }
    return r;
  }

  async facts(rel: string): Promise<FileFacts | null> {
    const grammar = grammarOf(rel);
    const text = grammar ? this.files.read(rel) : null;
    if (!grammar || text === null) return null;
    let parser = this.parsers.get(grammar);
    if (!parser) {
      parser = await parserFor(grammar);
      this.parsers.set(grammar, parser);
    }
    const tree = parser.parse(text);
    if (!tree) return null;
    try {
      return this.resolverFor(rel)!.facts(tree);
    } finally {
      tree.delete();
    }
  }

  dispose(): void {
    for (const p of this.parsers.values()) p.delete();
    this.parsers.clear();
  }
}
