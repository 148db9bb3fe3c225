// Walks from the failing tests' files through their imports, hop by hop, and ranks what it reaches: nearer first,
// and among files as near, those that define what the tests call (a re-export index passes the test's names on).
import { createHash } from 'node:crypto';
import type { ReachedFile } from '../../ports/codeContext';
import type { FileFacts, ImportRef } from './facts';
import { languageOf, withTree } from './grammars';
import type { LanguageId } from './grammars';
import { languageFor } from './languages';
import type { Resolver } from './languages';
import { WorkspaceFiles } from './workspaceFiles';
import type { IgnoredCheck, ReadGate } from './workspaceFiles';

export interface ReachOptions {
  /** Import hops to follow from the test files (0: the test files only). */
  hops: number;
  /** The path policy: every file read passes it. */
  gate: ReadGate;
  /** What git ignores is never read (.env, local settings); without it, the gate alone decides. */
  ignored?: IgnoredCheck;
  /** Most files to return (tests included); the walk stops adding once it has them. */
  maxFiles?: number;
  /** What earlier walks parsed, by path and content hash: a file unchanged since is not parsed again. */
  cache?: FactCache;
}

export type FactCache = Map<string, { hash: string; facts: FileFacts | null }>;

/** The CodeReader port's `reach`, over one workspace: what a session hands its code reader. */
export function importReach(workspace: string, opts: Omit<ReachOptions, 'hops'>): (from: readonly string[], hops: number) => Promise<ReachedFile[]> {
  // Each attempt walks again (edits change imports); only the files an edit changed are parsed again.
  const cache: FactCache = opts.cache ?? new Map();
  return (from, hops) => reachFrom(from, workspace, { ...opts, cache, hops });
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
  const files = new WorkspaceFiles(workspace, opts.gate, opts.ignored);
  const maxFiles = opts.maxFiles ?? 200;
  const reader = new FactReader(files, opts.cache);
  // Resolution is synchronous; a file the ignore check has not cleared reads as absent, so each step runs again
  // once git has answered for what it wanted, until it wants nothing new.
  const settled = async <T>(compute: () => T): Promise<T> => {
    for (;;) {
      const result = compute();
      if (!(await files.settle())) return result;
      reader.forgetResolvers();
    }
  };
  const entries = new Map<string, Entry>();
  const add = (rel: string, distance: number): Entry | null => {
    const known = entries.get(rel);
    if (known) return known;
    if (entries.size >= maxFiles) return null;
    const entry: Entry = { path: rel, distance, order: entries.size, symbols: new Set(), facts: null };
    entries.set(rel, entry);
    return entry;
  };
  const starts = await settled(() => testFiles.map((t) => files.norm(t)).filter((rel): rel is string => rel !== null && files.isFile(rel)));
  let level: Entry[] = [];
  for (const rel of starts) {
    const e = add(rel, 0);
    if (e && !level.includes(e)) level.push(e);
  }
  const tests = [...level];
  for (let d = 0; d < opts.hops && level.length; d++) {
    for (const from of level) from.facts ??= await reader.facts(from.path);
    const found = await settled(() =>
      level.flatMap((from) => {
        const lang = reader.resolverFor(from.path);
        return from.facts && lang ? [...edges(lang, from.path, from.facts)].map((edge) => ({ from, ...edge })) : [];
      }),
    );
    const next: Entry[] = [];
    for (const { from, target, ref } of found) {
      const names = ref.passes ? [...ref.names, ...from.symbols] : ref.names;
      const isNew = !entries.has(target);
      const to = add(target, d + 1);
      if (!to) continue;
      if (to.distance > from.distance) for (const n of names) to.symbols.add(n);
      if (isNew) next.push(to);
    }
    level = next;
  }
  for (const e of entries.values()) e.facts ??= await reader.facts(e.path);
  // What the failing tests call weighs most; then what they import by name; then what importers name.
  const called = new Set(tests.flatMap((t) => t.facts?.calls ?? []));
  const imported = new Set(tests.flatMap((t) => (t.facts?.imports ?? []).flatMap((i) => i.names)));
  const ranked = [...entries.values()].map((e) => {
    const defines = e.facts?.defines ?? [];
    return {
      e,
      key: [defines.filter((n) => called.has(n)).length, defines.filter((n) => imported.has(n)).length, defines.filter((n) => e.symbols.has(n)).length],
    };
  });
  ranked.sort((a, b) => a.e.distance - b.e.distance || b.key[0] - a.key[0] || b.key[1] - a.key[1] || b.key[2] - a.key[2] || a.e.order - b.e.order);
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

/** Parses each file once; one resolver per language for the walk. */
class FactReader {
  private readonly resolvers = new Map<LanguageId, Resolver>();

  constructor(private readonly files: WorkspaceFiles, private readonly cache?: FactCache) {}

  /** Resolvers cache what they found (a tsconfig, a go.mod); after the ignore check answers, they look again. */
  forgetResolvers(): void {
    this.resolvers.clear();
  }

  resolverFor(rel: string): Resolver | null {
    const lang = languageOf(rel);
    if (!lang) return null;
    let r = this.resolvers.get(lang);
    if (!r) {
      r = languageFor(lang, this.files);
      this.resolvers.set(lang, r);
    }
    return r;
  }

  async facts(rel: string): Promise<FileFacts | null> {
    const lang = languageOf(rel);
    const text = lang ? this.files.read(rel) : null;
    if (!lang || text === null) return null;
    const hash = this.cache ? createHash('sha1').update(text).digest('hex') : '';
    const cached = this.cache?.get(rel);
    if (cached && cached.hash === hash) return cached.facts;
    const resolver = this.resolverFor(rel)!;
    const facts = await withTree(lang, text, (tree) => resolver.facts(tree));
    this.cache?.set(rel, { hash, facts });
    return facts;
  }

}
