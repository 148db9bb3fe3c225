// The lines two short sequences share, in order (a longest common subsequence), as runs of kept, removed and added
// lines. Hand-written because the one library for it (jsdiff) imports its own `./base.js`, a name the bundle keeps for
// Greenloop's shared chunk; the caller keeps the inputs short (splice.ts), so the table stays small.

export interface DiffRun {
  kind: 'common' | 'removed' | 'added';
  count: number;
}

export function lineDiff(a: readonly string[], b: readonly string[]): DiffRun[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  // lcs[i * (m + 1) + j]: the longest common subsequence of a's middle from i and b's middle from j.
  const lcs = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * (m + 1) + j] = a[head + i] === b[head + j] ? lcs[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(lcs[(i + 1) * (m + 1) + j]!, lcs[i * (m + 1) + j + 1]!);
    }
  }
  const runs: DiffRun[] = [];
  const push = (kind: DiffRun['kind'], count = 1) => {
    if (count === 0) return;
    const last = runs[runs.length - 1];
    if (last && last.kind === kind) last.count += count;
    else runs.push({ kind, count });
  };
  push('common', head);
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[head + i] === b[head + j]) {
      push('common');
      i++;
      j++;
    } else if (i < n && (j === m || lcs[(i + 1) * (m + 1) + j]! >= lcs[i * (m + 1) + j + 1]!)) {
      // On a tie the removal goes first: a changed line reads as the old one out, then the new one in.
      push('removed');
      i++;
    } else {
      push('added');
      j++;
    }
  }
  push('common', tail);
  return runs;
}
