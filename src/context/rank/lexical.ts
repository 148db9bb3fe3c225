// The failure's own words as a query (issue 40): function units ranked by BM25 over their identifiers split at
// camelCase and snake_case (Agentless's retrieval and Aider's map rank by names the same way). A dispatch no static
// edge shows — `getattr(self, f"{name}_sql")`, a table of transforms, a tokenizer's states — is still named by the
// failing input (`BETWEEN SYMMETRIC` → `between_sql`), and a name the failure spells out is a strong signal.
import type { LexicalHit } from '../../ports/codeContext';

const K1 = 1.2;
const B = 0.75;
/** A unit's own name counts this many times: what a function is called says more than what it mentions. */
const NAME_WEIGHT = 3;
/** A name this short (`get`, `run`) said in a failure is no evidence. */
const MIN_NAMED = 4;

/** Words every program and failure say: no evidence of where a bug is. */
const STOP = new Set(('the and for not but with from that this self cls return function def const let var new null none nil true false '
  + 'if else elif while in of is to be it as at by on or an do fn func pub impl use mut ref static void int str string bool '
  + 'test tests assert assertion assertionerror error expected actual equal equals deep strict strictly values value got want '
  + 'should expect toequal tobe err ok fail failed failure line file at module exports require import py js ts go rs').split(' '));

/** Lowercase words of identifiers and text: `readBlockScalar` → read, block, scalar; `between_sql` → between, sql. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const id of text.match(/[A-Za-z][A-Za-z0-9_]*/g) ?? []) {
    const parts = id.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').split(/[\s_]+/);
    for (const p of parts) {
      const w = p.toLowerCase();
      if (w.length >= 2 && !STOP.has(w) && !/^\d/.test(w)) out.push(w);
    }
  }
  return out;
}

export interface LexicalUnit {
  path: string;
  line: number;
  endLine: number;
  name: string;
  text: string;
}

/**
 * The units best matching `query`, best first: BM25 normalised to the best one's (0..1), a unit whose name the query
 * spells out first of all. Units matching fewer than two words of the query, and not named by it, are left out.
 */
export function rankByWords(units: readonly LexicalUnit[], query: string, limit: number): LexicalHit[] {
  const terms = new Set(words(query));
  if (!terms.size || !units.length) return [];
  const docs = units.map((u) => {
    const tf = new Map<string, number>();
    const add = (w: string, n: number) => tf.set(w, (tf.get(w) ?? 0) + n);
    for (const w of words(shortName(u.name))) add(w, NAME_WEIGHT);
    for (const w of words(u.text)) add(w, 1);
    let length = 0;
    for (const n of tf.values()) length += n;
    return { u, tf, length };
  });
  const avg = docs.reduce((n, d) => n + d.length, 0) / docs.length;
  const df = new Map<string, number>();
  for (const d of docs) for (const t of terms) if (d.tf.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
  const said = query.toLowerCase();
  const tested = testedNames(query);
  const scored = docs.map((d) => {
    let score = 0;
    let matched = 0;
    for (const t of terms) {
      const f = d.tf.get(t);
      if (!f) continue;
      matched++;
      const n = df.get(t) ?? 0;
      const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
      score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / avg));
    }
    const name = shortName(d.u.name);
    const named = name.length >= MIN_NAMED && (new RegExp(`(^|[^A-Za-z0-9_])${escape(name)}([^A-Za-z0-9_]|$)`, 'i').test(said) || tested.has(loose(name)));
    return { d, score, matched, named };
  }).filter((s) => s.named || (s.matched >= 2 && s.score > 0));
  // A name the failure says outranks any count of shared words.
  scored.sort((a, b) => Number(b.named) - Number(a.named) || b.score - a.score);
  const best = Math.max(...scored.map((s) => s.score), 1e-9);
  return scored.slice(0, limit).map((s) => ({
    path: s.d.u.path, line: s.d.u.line, endLine: s.d.u.endLine, name: s.d.u.name,
    score: s.named ? 1 : Math.min(1, s.score / best), named: s.named,
  }));
}

/**
 * The functions the failing tests' own names say they test: `test_parse_key` and `parse_key_test` test `parse_key`,
 * `TestParseKey` and `testParseKey` test `ParseKey`/`parseKey`/`parse_key` (the xUnit naming every runner shares). A
 * prefix alone is no name: `test_parse_key_errors` names none.
 */
function testedNames(query: string): Set<string> {
  const out = new Set<string>();
  for (const id of query.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) {
    const m = /^test_+([A-Za-z]\w*)$/i.exec(id) ?? /^[Tt]est([A-Z]\w*)$/.exec(id) ?? /^([A-Za-z]\w*?)_+test$/i.exec(id) ?? /^([A-Za-z]\w*?[a-z0-9])Test$/.exec(id);
    if (m && m[1].length >= MIN_NAMED) out.add(loose(m[1]));
  }
  return out;
}

/** A name as any naming style spells it: `parse_key`, `parseKey` and `ParseKey` are one. */
function loose(name: string): string {
  return name.replace(/_/g, '').toLowerCase();
}

function shortName(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
