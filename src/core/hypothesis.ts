// The model's own account of its attempt, kept short: it feeds the next prompt and history, never a decision.

const MAX_SENTENCES = 3;
const MAX_CHARS = 600;

/** Ends of sentences: a run of . ! ? followed by a space or the end (so "3.5" and "a.js" do not end one). */
const SENTENCE_END = /[.!?]+(?= |$)/g;

export function summarizeHypothesis(prose: string): string {
  const text = leadingText(prose, MAX_CHARS + 1);
  if (!text) return '';
  // The first sentences are a prefix of the text: find where the last wanted one ends, one pass, no backtracking.
  let end = text.length;
  SENTENCE_END.lastIndex = 0;
  for (let n = 0, m = SENTENCE_END.exec(text); m; m = SENTENCE_END.exec(text)) {
    if (++n === MAX_SENTENCES || m.index + m[0].length > MAX_CHARS) {
      end = m.index + m[0].length;
      break;
    }
  }
  const short = text.slice(0, end).trim();
  return short.length > MAX_CHARS ? `${short.slice(0, MAX_CHARS - 1)}…` : short;
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
