// Strategy 5: the model copied its SEARCH from a numbered view (`12: `, `12 | `, `cat -n`'s tab). The numbers are
// stripped only when every SEARCH line carries the same style, they count up from the file's real line number of
// the place, and the stripped text matches there and nowhere else; a dict or list whose keys look like numbers is
// never stripped (its lines would have to be the numbers of the lines they are on, and match without them).
import { findAll } from './findLines';
import { trimmed } from './indentation';
import { NONE, straightPiece, type Strategy } from './strategy';

const STYLES: Array<{ name: string; re: RegExp }> = [
  // `12: ` starts at the left edge: `    1: 'one',` is a dict's key, indented inside code.
  { name: 'colon', re: /^()(\d+):(?: |$)/ },
  { name: 'pipe', re: /^( *)(\d+) ?\|(?: |$)/ },
  { name: 'tab', re: /^( *)(\d+)\t/ },
];
/** A numbered blank line whose separator the model trimmed away with the trailing blanks. */
const BARE = /^( *)(\d+)[:|]?\s*$/;
const BARE_LEFT = /^()(\d+):?\s*$/;

export interface Numbered {
  /** The number on the first line. */
  first: number;
  /** The lines without their prefixes. */
  lines: string[];
  /** The prefix as the model wrote it on its first line, for a sentence. */
  sample: string;
  style: string;
}

/** The prefix of one line in `style`, with where its number ends; null when it has none. */
function prefixOf(line: string, re: RegExp): { len: number; n: number; pad: number; end: number } | null {
  const m = re.exec(line) ?? (re.source.startsWith('^()') ? BARE_LEFT : BARE).exec(line);
  if (!m) return null;
  return { len: m[0].length, n: Number(m[2]), pad: m[1]!.length, end: m[1]!.length + m[2]!.length };
}

/** Numbers at the left edge, or right-aligned to one column: never a key indented inside code. */
const aligned = (p: { pad: number; end: number }, first: { pad: number; end: number }) => p.pad === 0 || p.end === first.end;

/** The SEARCH lines without their numbers when every line has one in the same style, counting up by one. */
export function stripNumbers(lines: readonly string[]): Numbered | null {
  for (const { name, re } of STYLES) {
    if (!re.test(lines[0] ?? '')) continue;
    const ps = lines.map((l) => prefixOf(l, re));
    const first = ps[0]!;
    if (ps.some((p, k) => p === null || p.n !== first.n + k || !aligned(p, first))) continue;
    return { first: first.n, lines: lines.map((l, k) => l.slice(ps[k]!.len)), sample: lines[0]!.slice(0, first.len), style: name };
  }
  return null;
}

/** REPLACE lines lose a prefix of the SEARCH's style; lines the model added without a number stay as written. */
function stripReplace(lines: readonly string[], style: string, firstLine: string): string[] {
  const re = STYLES.find((s) => s.name === style)!.re;
  const first = prefixOf(firstLine, re)!;
  return lines.map((l) => {
    const p = re.exec(l);
    return p && aligned({ pad: p[1]!.length, end: p[1]!.length + p[2]!.length }, first) ? l.slice(p[0].length) : l;
  });
}

export const lineNumbers: Strategy = {
  name: 'line-numbers',
  rebase: true,
  find: ({ file, search, replace }) => {
    const numbered = stripNumbers(search);
    if (!numbered) return NONE;
    const hits = findAll(file, numbered.lines, trimmed);
    if (hits.length > 1) return { kind: 'ambiguous', lines: hits.map((h) => h + 1) };
    if (hits.length === 0 || hits[0]! !== numbered.first - 1) return NONE;
    return { kind: 'placed', pieces: [straightPiece(hits[0]!, numbered.lines, stripReplace(replace, numbered.style, search[0]!))] };
  },
};
