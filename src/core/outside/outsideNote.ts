// The engine's side of the watch outside the snapshotted tree: marked before an agent runs (a model writes nothing
// itself, so it is never watched), and its changes told: one sentence for the report, and the attempt's
// record of which git-ignored files it touched (those left changed get the final state tested again).
import type { OutsideChange, OutsideMark } from '../ports';
import type { IterationRecord, RunState } from '../runState';
import type { LoopContext } from '../loopContext';

const SHOWN = 6;

/** What the agent changed, what was put back, and what the person must look at themselves, in one sentence. */
export function outsideSentence(changes: readonly OutsideChange[]): string {
  const left = changes.filter((c) => !c.undone);
  const ordered = [...left, ...changes.filter((c) => c.undone)];
  const shown = ordered.slice(0, SHOWN).map((c) => `${c.where} ${c.what}${c.undone ? '' : ` (NOT undone: ${c.why ?? 'not saved'})`}`);
  const more = ordered.length > SHOWN ? ` and ${ordered.length - SHOWN} more` : '';
  const one = changes.length === 1;
  const head = `The agent changed ${one ? 'something' : `${changes.length} things`} outside the files Greenloop snapshots: ${shown.join(', ')}${more}`;
  if (left.length === 0) return `${head}; Greenloop put ${one ? 'it' : 'all of it'} back as it was and stopped the run.`;
  if (left.length === changes.length) return `${head}; Greenloop could not put ${one ? 'it' : 'any of it'} back, so check ${one ? 'it' : 'those'} yourself; the run stopped.`;
  return `${head}; the rest was put back as it was, but what is marked NOT undone is as the agent left it, so check it yourself; the run stopped.`;
}

/** Fills the attempt's record and the run's list of ignored files left changed; returns the sentence. */
export function noteOutside(state: RunState, record: IterationRecord, changes: readonly OutsideChange[], rolledBack: readonly string[]): string {
  const text = outsideSentence(changes);
  record.note = rolledBack.length ? `${text} What it changed in the workspace was rolled back too.` : text;
  record.unrecorded = changes.filter((c) => c.ignored).map((c) => c.where);
  const left = changes.filter((c) => c.ignored && !c.undone).map((c) => c.where);
  if (left.length) state.unrecordedChanged = [...new Set([...(state.unrecordedChanged ?? []), ...left])].sort();
  return text;
}

/** Before an agent runs: what it must leave alone outside the snapshotted tree is looked at and saved. */
export async function markOutside(ctx: LoopContext, state: RunState): Promise<OutsideMark | null> {
  if (!ctx.deps.actor.editsWorkspace || !ctx.deps.outside) return null;
  const mark = await ctx.deps.outside.mark();
  for (const w of mark.warnings) ctx.warn(state, w);
  return mark;
}
