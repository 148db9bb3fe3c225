// Keeps prompt sections inside a character budget without losing the parts that matter (start and end).

/** Collapses runs of identical lines ("same line ×12") — stack traces and retries repeat a lot. */
export function collapseRepeats(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    let j = i + 1;
    while (j < lines.length && lines[j] === lines[i]) j++;
    out.push(j - i > 2 ? `${lines[i]}  [×${j - i}]` : lines.slice(i, j).join('\n'));
    i = j;
  }
  return out.join('\n');
}

/** Head and tail of a text within maxChars, with a marker saying how much was cut. */
export function headTail(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars * 0.4);
  const tail = maxChars - head;
  const cut = text.length - head - tail;
  return `${text.slice(0, head)}\n[… ${cut} characters cut …]\n${text.slice(text.length - tail)}`;
}

export function trimSection(text: string, maxChars: number): string {
  return headTail(collapseRepeats(text), maxChars);
}

/** The usual 4-characters-per-token estimate; used for budgets, never for billing. */
export const CHARS_PER_TOKEN = 4;

/** Stack frames inside the runtime or dependencies say nothing a model can fix; workspace paths become relative. */
export function pruneStackNoise(text: string, cwd: string): string {
  const noise = /(node:internal|node:async_hooks|\/node_modules\/|<anonymous>\)?\s*$|^\s*(at\s+)?(async\s+)?Promise\.all\b)/;
  const prefix = cwd.endsWith('/') ? cwd : `${cwd}/`;
  return text
    .split('\n')
    .filter((line) => !noise.test(line))
    .map((line) => line.split(prefix).join(''))
    .join('\n');
}
