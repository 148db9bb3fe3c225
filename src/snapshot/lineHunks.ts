// The changes from one blob to another as zero-context hunks, from git's own diff: every changed line and nothing
// around it, so two changes of one file are told apart by the lines they touch, not by the lines near them.
import type { GitRunner } from './gitRunner';
import type { Hunk } from './lineMerge';

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Hunks in `base` coordinates; the changed lines are taken from `otherLines`, which must be `other`'s split lines. */
export async function lineHunks(git: GitRunner, base: string, other: string, otherLines: readonly string[]): Promise<Hunk[]> {
  // No rename, textconv or external diff of anyone's config: the two blobs' lines as they are.
  const r = await git.run(['diff', '--no-ext-diff', '--no-textconv', '--no-color', '--no-indent-heuristic', '--diff-algorithm=histogram', '-U0', base, other], { okCodes: [1] });
  const hunks: Hunk[] = [];
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const m = HEADER.exec(line);
    if (!m) continue;
    const a = Number(m[1]);
    const b = m[2] === undefined ? 1 : Number(m[2]);
    const c = Number(m[3]);
    const d = m[4] === undefined ? 1 : Number(m[4]);
    // A hunk that removes nothing puts its lines in after line a; one that removes b lines starts at line a.
    const start = b === 0 ? a : a - 1;
    hunks.push({ start, end: start + b, lines: d === 0 ? [] : otherLines.slice(c - 1, c - 1 + d), newStart: c, newCount: d });
  }
  return hunks;
}
