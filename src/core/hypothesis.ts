// The model's own account of its attempt, kept short: it feeds the next prompt and history, never a decision.

const MAX_SENTENCES = 3;
const MAX_CHARS = 600;

export function summarizeHypothesis(prose: string): string {
  const text = prose
    .split('\n')
    .filter((l) => !/^\s*(```|~~~)/.test(l))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return '';
  const sentences = text.match(/[^.!?]+[.!?]+(?=\s|$)|[^.!?]+$/g) ?? [text];
  const short = sentences.slice(0, MAX_SENTENCES).join(' ').trim();
  return short.length > MAX_CHARS ? `${short.slice(0, MAX_CHARS - 1)}…` : short;
}
