// What a "not found" note says: the file's real lines at the place closest to the SEARCH (whole lines), and how they
// differ from it. The model's own text is only ever quoted as its own, never as if it were the file's.
import { isBlank, type Line } from './lines';
import { stripNumbers } from './lineNumbers';

const SHOWN_LINES = 9;
const QUOTE_CHARS = 200;
const SPAN_CHARS = 60;
/** Lines of the SEARCH that vote for a place, and places one line may vote for: the note stays cheap on big inputs. */
const VOTERS = 200;
const VOTES_PER_LINE = 50;

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** The file's non-blank lines, by index, and the start (among them) most SEARCH lines agree on; null: nothing close. */
function closestStart(file: readonly Line[], want: string[]): { solid: number[]; start: number; votes: number } | null {
  const solid: number[] = [];
  file.forEach((l, i) => {
    if (!isBlank(l.text)) solid.push(i);
  });
  const voters = want.slice(0, VOTERS);
  const where = new Map<string, number[]>();
  for (const w of voters) where.set(w, []);
  solid.forEach((i, c) => {
    const at = where.get(file[i]!.text.trim());
    if (at && at.length < VOTES_PER_LINE) at.push(c);
  });
  const votes = new Map<number, number>();
  voters.forEach((w, j) => {
    for (const c of where.get(w)!) votes.set(c - j, (votes.get(c - j) ?? 0) + 1);
  });
  let start = -1;
  let most = 0;
  for (const [s, n] of votes) if (n > most || (n === most && s < start)) [start, most] = [s, n];
  if (most > 0) return { solid, start: Math.max(start, 0), votes: most };
  // No line is equal: the file line that begins like the SEARCH's first line, or that it begins like.
  const first = want[0]!;
  const near = solid.findIndex((i) => {
    const t = file[i]!.text.trim();
    return t.length >= 4 && first.length >= 4 && (t.startsWith(first) || first.startsWith(t) || commonPrefix(t, first) >= Math.max(8, Math.ceil(first.length * 0.6)));
  });
  return near < 0 ? null : { solid, start: near, votes: 0 };
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/** How the model's line differs from the file's, in words. */
function howDiffers(mine: string, theirs: string, k: number, at: number): string {
  if (theirs.startsWith(mine)) return `line ${k} of your SEARCH is only the beginning of line ${at} of the file`;
  if (mine.startsWith(theirs)) return `line ${k} of your SEARCH goes on past the end of line ${at} of the file`;
  const tokens = (s: string) => s.match(/\w+|\s+|[^\w\s]/g) ?? [];
  const a = tokens(theirs);
  const b = tokens(mine);
  let lo = 0;
  while (lo < a.length && lo < b.length && a[lo] === b[lo]) lo++;
  let hi = 0;
  while (hi < a.length - lo && hi < b.length - lo && a[a.length - 1 - hi] === b[b.length - 1 - hi]) hi++;
  const span = (t: string[]) => clip(t.slice(lo, t.length - hi).join('').trim(), SPAN_CHARS);
  const fileSpan = span(a);
  const mineSpan = span(b);
  if (fileSpan === '') return `line ${k} of your SEARCH has \`${mineSpan}\` that line ${at} of the file does not have`;
  if (mineSpan === '') return `line ${at} of the file has \`${fileSpan}\` where line ${k} of your SEARCH has nothing`;
  return `line ${at} of the file has \`${fileSpan}\` where line ${k} of your SEARCH has \`${mineSpan}\``;
}

/** The file's lines `from`..`to` (1-based, inclusive) as a fenced quote. */
export function quoteFile(file: readonly Line[], from: number, to: number): string {
  const shown = file.slice(from - 1, to).map((l) => clip(l.text, QUOTE_CHARS));
  return `\`\`\`\n${shown.join('\n')}\n\`\`\``;
}

/**
 * The note for a SEARCH that no strategy placed: "<how it differs>; lines a-b of the file are now:" and those lines,
 * or a sentence saying no line of the file looks like it.
 */
export function notFoundNote(file: readonly Line[], search: readonly string[]): string {
  const solidOf = (lines: readonly string[]) => {
    const want: string[] = [];
    const wantAt: number[] = [];
    lines.forEach((l, k) => {
      if (!isBlank(l)) {
        want.push(l.trim());
        wantAt.push(k + 1);
      }
    });
    return { want, wantAt };
  };
  let { want, wantAt } = solidOf(search);
  if (want.length === 0) return 'its SEARCH lines are all blank';
  let near = closestStart(file, want);
  // Read without line numbers, the SEARCH may be closer to the file: then the numbers are named as the difference.
  const numbered = stripNumbers(search);
  let numberNote = '';
  if (numbered) {
    const bare = solidOf(numbered.lines);
    const nearBare = bare.want.length ? closestStart(file, bare.want) : null;
    if (nearBare && (!near || nearBare.votes > near.votes)) {
      ({ want, wantAt } = bare);
      near = nearBare;
      numberNote = `; its lines start with line numbers (\`${numbered.sample.trim()}\`) that are not part of the file, so leave them out`;
    }
  }
  if (!near) return 'no line of the file looks like its first line';
  const { solid, start } = near;
  let how = '';
  let diffAt = -1;
  for (let j = 0; j < want.length; j++) {
    const c = start + j;
    if (c >= solid.length) {
      how = `the file ends at line ${file.length}, before line ${wantAt[j]} of your SEARCH`;
      diffAt = file.length;
      break;
    }
    const theirs = file[solid[c]!]!.text.trim();
    if (theirs !== want[j]) {
      how = howDiffers(want[j]!, theirs, wantAt[j]!, solid[c]! + 1);
      diffAt = solid[c]! + 1;
      break;
    }
  }
  if (!how) {
    how = 'its lines are all in the file but not in this order with these blank lines';
    diffAt = solid[start]! + 1;
  }
  let from = solid[start]! + 1;
  let to = solid[Math.min(start + want.length, solid.length) - 1]! + 1;
  if (to - from + 1 > SHOWN_LINES) {
    from = Math.max(from, diffAt - Math.floor(SHOWN_LINES / 2));
    to = Math.min(to, from + SHOWN_LINES - 1);
  }
  const which = from === to ? `line ${from} of the file is` : `lines ${from}-${to} of the file are`;
  return `${how}${numberNote}; ${which} now:\n${quoteFile(file, from, to)}`;
}
