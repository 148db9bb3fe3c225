// Finds a SEARCH section in a file's text and splices in the REPLACE section, line by line, so every
// line the edit does not touch keeps its exact bytes (CRLF, a stray LF, the BOM, a missing last newline).

type Eol = '' | '\n' | '\r\n';

interface Line {
  text: string;
  eol: Eol;
}

export type MatchTier = 'exact' | 'trailing-whitespace' | 'indentation';

export type ReplaceOutcome =
  | { ok: true; content: string; tier: MatchTier; line: number }
  | { ok: false; kind: 'not-found'; hint: string }
  | { ok: false; kind: 'ambiguous'; tier: MatchTier; lines: number[] };

const BOM = '\uFEFF';

function splitLines(body: string): Line[] {
  const out: Line[] = [];
  const re = /\r\n|\n/g;
  let at = 0;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    out.push({ text: body.slice(at, m.index), eol: m[0] as Eol });
    at = m.index + m[0].length;
  }
  if (at < body.length) out.push({ text: body.slice(at), eol: '' });
  return out;
}

/** The model's section as bare line texts; its own line endings are irrelevant. */
export function sectionLines(section: string): string[] {
  const s = section.replace(/\r\n?/g, '\n');
  if (s === '') return [];
  return (s.endsWith('\n') ? s.slice(0, -1) : s).split('\n');
}

/** True when a SEARCH section says "create the file" (blank lines only count as empty). */
export function isEmptySection(section: string): boolean {
  return section.trim() === '';
}

/** Each tier compares lines by a key: equal keys, equal lines. */
const TIERS: Array<[MatchTier, (line: string) => string]> = [
  ['exact', (l) => l],
  ['trailing-whitespace', (l) => l.trimEnd()],
  ['indentation', (l) => l.trim()],
];

/**
 * Every line index where `search` occurs in `file` under `key`, overlapping hits included. Lines become numbers
 * (equal keys, equal numbers) and Knuth–Morris–Pratt finds the runs, so the time is linear in the text however
 * long or repetitive the SEARCH is (a naive scan of 20,000 equal lines is 20,000² comparisons).
 */
function findAll(file: Line[], search: string[], key: (line: string) => string): number[] {
  const ids = new Map<string, number>();
  const want = search.map((s) => {
    const k = key(s);
    let id = ids.get(k);
    if (id === undefined) ids.set(k, (id = ids.size));
    return id;
  });
  const fail = new Int32Array(want.length);
  for (let i = 1, k = 0; i < want.length; i++) {
    while (k > 0 && want[i] !== want[k]) k = fail[k - 1]!;
    if (want[i] === want[k]) k++;
    fail[i] = k;
  }
  const hits: number[] = [];
  for (let i = 0, k = 0; i < file.length; i++) {
    const id = ids.get(key(file[i]!.text)) ?? -1;
    while (k > 0 && id !== want[k]) k = fail[k - 1]!;
    if (id === want[k]) k++;
    if (k === want.length) {
      hits.push(i - k + 1);
      k = fail[k - 1]!;
    }
  }
  return hits;
}

const lead = (s: string) => /^[ \t]*/.exec(s)![0];

/**
 * When the model got the indentation wrong by a constant amount, shift its replacement by the same amount
 * so the new code lands at the file's indentation, not the model's.
 */
function reindent(matched: Line[], search: string[], replace: string[]): string[] {
  const added = new Set<string>();
  const removed = new Set<string>();
  search.forEach((s, k) => {
    if (s.trim() === '') return;
    const f = lead(matched[k]!.text);
    const m = lead(s);
    if (f.endsWith(m)) added.add(f.slice(0, f.length - m.length));
    else added.add('\0');
    if (m.endsWith(f)) removed.add(m.slice(0, m.length - f.length));
    else removed.add('\0');
  });
  if (added.size === 1) {
    const p = [...added][0]!;
    if (p !== '\0' && p !== '') return replace.map((r) => (r.trim() === '' ? r : p + r));
  }
  if (removed.size === 1) {
    const p = [...removed][0]!;
    if (p !== '\0' && p !== '') return replace.map((r) => (r.startsWith(p) ? r.slice(p.length) : r));
  }
  return replace;
}

function dominantEol(lines: Line[]): Eol {
  let crlf = 0;
  let lf = 0;
  for (const l of lines) {
    if (l.eol === '\r\n') crlf++;
    else if (l.eol === '\n') lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

function notFoundHint(file: Line[], search: string[]): string {
  const first = search.find((s) => s.trim() !== '')?.trim();
  if (first === undefined) return 'its SEARCH lines are all blank';
  const at = file.findIndex((l) => l.text.trim() === first);
  if (at < 0) return 'no line of the file looks like its first line';
  return `its first line matches line ${at + 1} of the file, but the lines after it differ`;
}

/**
 * Replaces the one place where `search` occurs in `content`: exact lines first, then ignoring trailing
 * whitespace, then ignoring indentation. A tier with several hits is ambiguous and stops the search, since
 * a looser tier could only find more.
 */
export function replaceOnce(content: string, search: string, replace: string): ReplaceOutcome {
  const bom = content.startsWith(BOM);
  const file = splitLines(bom ? content.slice(1) : content);
  const want = sectionLines(search);
  if (want.length === 0) return { ok: false, kind: 'not-found', hint: 'its SEARCH section is empty' };

  for (const [tier, key] of TIERS) {
    const hits = findAll(file, want, key);
    if (hits.length > 1) return { ok: false, kind: 'ambiguous', tier, lines: hits.map((h) => h + 1) };
    if (hits.length === 0) continue;
    const at = hits[0]!;
    const matched = file.slice(at, at + want.length);
    let texts = sectionLines(replace);
    if (tier === 'indentation') texts = reindent(matched, want, texts);

    const eol = matched.find((l) => l.eol !== '')?.eol ?? dominantEol(file);
    const lastEol = matched[matched.length - 1]!.eol;
    const fresh: Line[] = texts.map((text, k) => ({ text, eol: k === texts.length - 1 ? lastEol : eol }));
    const out = [...file.slice(0, at), ...fresh, ...file.slice(at + want.length)];
    // Deleting the unterminated last line must not leave a newline the file never had.
    if (fresh.length === 0 && lastEol === '' && at === out.length && at > 0) out[at - 1] = { ...out[at - 1]!, eol: '' };
    const body = out.map((l) => l.text + l.eol).join('');
    return { ok: true, content: (bom ? BOM : '') + body, tier, line: at + 1 };
  }
  return { ok: false, kind: 'not-found', hint: notFoundHint(file, want) };
}
