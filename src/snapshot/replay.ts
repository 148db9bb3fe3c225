// One attempt's change carried over onto another state, in git objects only: what lets the loop judge the latest edit
// on top of the best state after an earlier edit, judged by its failing tests alone, turned out to break something.
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LineSpan, ReplayConflict } from '../ports/snapshots';
import { GitRunner, joinZ } from './gitRunner';
import { lineHunks } from './lineHunks';
import { mergeHunks, splitLines, type Hunk } from './lineMerge';
import { entriesOf, readBlobs, type TreeEntry } from './writeTreeFiles';

export interface ReplayPlan {
  /** What each path the change touched becomes on top of `onto` (null: removed). */
  entries: Map<string, TreeEntry | null>;
  conflicts: ReplayConflict[];
}

const same = (a: TreeEntry | null, b: TreeEntry | null): boolean => (a === null ? b === null : b !== null && a.blob === b.blob && a.mode === b.mode);
/** Symbolic links and submodules are not text to merge. */
const LINK_OR_MODULE = /^(120000|160000)$/;

/**
 * Per path: the change's own result where `onto` holds what it started from, `onto`'s where the change left it
 * alone, else the change's own lines put into `onto`'s text (theirs: from → to; ours: from → onto).
 */
export async function planReplay(git: GitRunner, trees: { from: string; to: string; onto: string }, paths: readonly string[]): Promise<ReplayPlan> {
  const [base, theirs, ours] = await Promise.all([entriesOf(git, trees.from, paths), entriesOf(git, trees.to, paths), entriesOf(git, trees.onto, paths)]);
  const entries = new Map<string, TreeEntry | null>();
  const conflicts: ReplayConflict[] = [];
  for (const p of paths) {
    const b = base.get(p) ?? null;
    const t = theirs.get(p) ?? null;
    const o = ours.get(p) ?? null;
    if (same(o, b)) entries.set(p, t);
    else if (same(t, b) || same(o, t)) entries.set(p, o);
    else if (b && t && o && !LINK_OR_MODULE.test(b.mode + t.mode + o.mode) && (b.mode === t.mode || b.mode === o.mode || t.mode === o.mode)) {
      const merged = await mergeBlobs(git, b.blob, o.blob, t.blob);
      // A mode only one side changed goes with the merged text.
      const mode = t.mode !== b.mode ? t.mode : o.mode;
      if ('blob' in merged) entries.set(p, { mode, blob: merged.blob });
      else conflicts.push({ path: p, lines: merged.lines });
    } else conflicts.push({ path: p, lines: [] });
  }
  return { entries, conflicts };
}

/**
 * The change base → theirs put into ours line by line (zero-context hunks): the merged blob, or the lines of ours
 * both changed (none for a binary file, which has no lines).
 */
async function mergeBlobs(git: GitRunner, base: string, ours: string, theirs: string): Promise<{ blob: string } | { lines: LineSpan[] }> {
  const texts = (await readBlobs(git, [base, ours, theirs]));
  const [b, o, t] = [base, ours, theirs].map((id) => texts.get(id)!);
  if ([b, o, t].some((buf) => buf.includes(0))) return { lines: [] };
  const [bl, ol, tl] = [b, o, t].map((buf) => splitLines(buf.toString('latin1')));
  // latin1 keeps every byte as one character: lines split and join back to the very bytes, whatever the encoding.
  const merged = mergeHunks(bl, await lineHunks(git, base, ours, ol), await lineHunks(git, base, theirs, tl));
  if (!merged.ok) return { lines: spansOf(merged.conflicts.map((c) => c.ours)) };
  const out = Buffer.from(merged.lines.join(''), 'latin1');
  return { blob: (await git.run(['hash-object', '-w', '--stdin'], { input: out })).stdout.toString('utf8').trim() };
}

/** Where the conflicting changes sit in ours, each once. */
function spansOf(hunks: readonly Hunk[]): LineSpan[] {
  const seen = new Set<string>();
  const out: LineSpan[] = [];
  for (const h of hunks) {
    const span = { start: h.newStart, count: h.newCount };
    const key = `${span.start},${span.count}`;
    if (!seen.has(key)) out.push(span);
    seen.add(key);
  }
  return out.sort((a, b) => a.start - b.start);
}

/** `onto` with the planned entries, as a tree written through an index of its own (the store's stays as it is). */
export async function treeWith(git: GitRunner, onto: string, entries: Map<string, TreeEntry | null>): Promise<string> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'greenloop-replay-'));
  try {
    const own = new GitRunner({ ...git.opts, indexFile: path.join(dir, 'index') });
    await own.run(['read-tree', onto]);
    const lines = [...entries].map(([p, e]) => (e ? `${e.mode} ${e.blob}\t${p}` : `0 ${'0'.repeat(40)}\t${p}`));
    if (lines.length) await own.run(['update-index', '-z', '--index-info'], { input: joinZ(lines) });
    return (await own.text(['write-tree'])).trim();
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
