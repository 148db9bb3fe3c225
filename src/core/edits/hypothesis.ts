// The model's own account of its attempt, kept short: it feeds the next prompt and history, never a decision.

const MAX_SENTENCES = 3;
const MAX_CHARS = 600;

/** Ends of sentences: a run of . ! ? followed by a space or the end (so "3.14", "v1.2.3" and "src/a.ts" do not end one). */
const SENTENCE_END = /[.!?]+(?= |$)/g;
/** Abbreviations a dot ends without ending the sentence; "etc." ends one only before a capital. */
const ABBREVIATION = /(?:^|[\s(,;:])(?:e\.g|i\.e|cf|vs|viz|approx|incl|resp|mr|mrs|ms|dr|prof|fig)$/i;
const ETC = /(?:^|[\s(,;:])etc$/i;

export function summarizeHypothesis(prose: string): string {
  const text = leadingText(prose, MAX_CHARS + 1);
  if (!text) return '';
  // The first sentences are a prefix of the text: find where the last wanted one ends, one pass, no backtracking.
  let end = text.length;
  SENTENCE_END.lastIndex = 0;
  for (let n = 0, m = SENTENCE_END.exec(text); m; m = SENTENCE_END.exec(text)) {
    const after = m.index + m[0].length;
    if (m[0] === '.' && endsInAbbreviation(text, m.index, after)) continue;
    if (++n === MAX_SENTENCES || after > MAX_CHARS) {
      end = after;
      break;
    }
  }
  const short = text.slice(0, end).trim();
  return short.length > MAX_CHARS ? `${short.slice(0, MAX_CHARS - 1)}…` : short;
}

/** Whether the dot at `dot` closes an abbreviation ("e.g.", "Mr.", "etc." before a lower-case word) rather than a sentence. */
function endsInAbbreviation(text: string, dot: number, after: number): boolean {
  const before = text.slice(Math.max(0, dot - 8), dot);
  if (ABBREVIATION.test(before)) return true;
  return ETC.test(before) && /^ [a-z0-9]/.test(text.slice(after, after + 2));
}

/** The prose without fence lines, whitespace collapsed, up to about `chars` characters: only the start is summarized. */
function leadingText(prose: string, chars: number): string {
  let out = '';
  for (let at = 0; at <= prose.length && out.length <= chars; ) {
    const nl = prose.indexOf('\n', at);
    const stop = nl < 0 ? prose.length : nl;
    const line = prose.slice(at, Math.min(stop, at + chars + 1));
    if (!/^\s*(```|~~~)/.test(line)) out += ` ${line}`;
    at = stop + 1;
  }
  return out.replace(/\s+/g, ' ').trim();
}
