// Splits a unified diff into typed lines for colouring. The panel renders each with textContent, so file
// content is never parsed as markup.

export type DiffLineKind = 'file' | 'hunk' | 'add' | 'del' | 'context' | 'meta';

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
}

/** Enough lines for any reviewable fix; beyond it the panel says how many were left out. */
export const MAX_DIFF_LINES = 2000;

const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/** Hunk headers give line counts, so a removed line that itself starts with "-- " is not taken for a file header. */
export function classifyDiff(diff: string, max = MAX_DIFF_LINES): { lines: DiffLine[]; omitted: number } {
  const all = diff.replace(/\r\n/g, '\n').split('\n');
  if (all.length && all[all.length - 1] === '') all.pop();
  const lines: DiffLine[] = [];
  let oldLeft = 0;
  let newLeft = 0;
  for (const text of all.slice(0, max)) {
    let kind: DiffLineKind;
    const hunk = HUNK.exec(text);
    if (oldLeft > 0 || newLeft > 0) {
      if (text.startsWith('+')) {
        kind = 'add';
        newLeft--;
      } else if (text.startsWith('-')) {
        kind = 'del';
        oldLeft--;
      } else if (text.startsWith('\\')) kind = 'meta';
      else {
        kind = 'context';
        oldLeft--;
        newLeft--;
      }
    } else if (hunk) {
      kind = 'hunk';
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
    } else if (text.startsWith('diff ') || text.startsWith('--- ') || text.startsWith('+++ ')) kind = 'file';
    else kind = 'meta';
    lines.push({ kind, text });
  }
  return { lines, omitted: Math.max(0, all.length - max) };
}
