// Two changes of one text, merged line by line: what carries the latest attempt's change onto the best state without
// the earlier edits it was tested with. git's own three-way merge calls changes to neighbouring lines a conflict (a
// wrong edit of line 4 and the real fix of lines 1-3 could not be separated); here only changes to the very same
// lines are, so a wrong edit and the real fix in one function still come apart.

/** One change of the base text: its lines [start, end) (0-based; start = end for lines put in before `start`) become `lines`. */
export interface Hunk {
  start: number;
  end: number;
  lines: string[];
  /** Where `lines` sit in the changed text: first line (1-based) and how many; git's `+c,d` of the hunk. */
  newStart: number;
  newCount: number;
}

export type LineMerge = { ok: true; lines: string[] } | { ok: false; conflicts: Array<{ ours: Hunk; theirs: Hunk }> };

/** Lines with their own line ends, as git counts them: a last line without one is a line too. */
export function splitLines(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl + 1;
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

const sameHunk = (a: Hunk, b: Hunk): boolean =>
  a.start === b.start && a.end === b.end && a.lines.length === b.lines.length && a.lines.every((l, i) => l === b.lines[i]);

/** Whether two changes of the same base touch the same lines (neighbours do not; lines put in at one place do). */
function overlap(a: Hunk, b: Hunk): boolean {
  const aIns = a.start === a.end;
  const bIns = b.start === b.end;
  if (aIns && bIns) return a.start === b.start;
  if (aIns) return b.start < a.start && a.start < b.end;
  if (bIns) return a.start < b.start && b.start < a.end;
  return a.start < b.end && b.start < a.end;
}

/**
 * Both changes applied to `base`, or the pairs that touch the same lines. A change both made alike is made once.
 * Lines put in where the other side's change begins or ends go before or after it, as their place says.
 */
export function mergeHunks(base: readonly string[], ours: readonly Hunk[], theirs: readonly Hunk[]): LineMerge {
  const conflicts: Array<{ ours: Hunk; theirs: Hunk }> = [];
  const kept: Hunk[] = [...ours];
  for (const t of theirs) {
    const clash = ours.filter((o) => overlap(o, t));
    if (clash.length === 0) kept.push(t);
    else if (!(clash.length === 1 && sameHunk(clash[0]!, t))) for (const o of clash) conflicts.push({ ours: o, theirs: t });
  }
  if (conflicts.length) return { ok: false, conflicts };
  // By start; at one start, lines put in before the lines replaced there.
  kept.sort((a, b) => a.start - b.start || a.end - b.end);
  const lines: string[] = [];
  let at = 0;
  for (const h of kept) {
    lines.push(...base.slice(at, h.start), ...h.lines);
    at = h.end;
  }
  lines.push(...base.slice(at));
  return { ok: true, lines };
}
