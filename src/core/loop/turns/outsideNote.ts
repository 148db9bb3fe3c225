// The loop's side of the watch outside the snapshotted tree: marked before an agent runs (only the agent's turn
// marks it: a model writes nothing itself, so it is never watched), and its changes told: one sentence for the
// report, and the attempt's record of which git-ignored files it touched (those left changed get the final state
// tested again). Whether a change stops the run is the watch's call (`guarded`): only what it saved and answers for
// undoes the attempt and stops the run.
import type { OutsideChange, OutsideMark } from '../../../ports/outside';
import type { IterationRecord, RunState } from '../../../ports/runState';
import type { LoopContext } from '../loopContext';
import { escalate, type Stop } from '../bounds/termination';
import { recordAttempt } from '../record';
import { restoreIfChanged } from '../states/rollback';

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

/** True when a change is one the watch answers for: the attempt is undone and the run stops. */
export function stopsTheRun(changes: readonly OutsideChange[] | undefined): boolean {
  return !!changes?.some((c) => c.guarded);
}

/** Changes nobody can attribute or undo, as a warning: the attempt stands and the run goes on. */
export function outsideWarning(n: number, left: readonly OutsideChange[]): string {
  const one = left.length === 1;
  const shown = left.slice(0, SHOWN).map((c) => `${c.where} ${c.what} (${c.why ?? 'not saved'})`).join(', ');
  const more = left.length > SHOWN ? ` and ${left.length - SHOWN} more` : '';
  return `While the agent ran attempt ${n}, ${one ? 'something' : `${left.length} things`} outside the files Greenloop snapshots changed: ${shown}${more}. `
    + `Greenloop can neither undo ${one ? 'it' : 'them'} nor tell the agent's writes from another program's, so ${one ? 'it was' : 'they were'} left as ${one ? 'it is' : 'they are'} and the attempt went on; look at ${one ? 'it' : 'them'} if you did not expect ${one ? 'it' : 'them'}.`;
}

/**
 * Fills the attempt's record (what was left as a warning, which ignored files it touched) and the run's list of
 * ignored files left changed; returns the sentence: why the run stops, or the warning when nothing stops it.
 */
export function noteOutside(state: RunState, record: IterationRecord, changes: readonly OutsideChange[], rolledBack: readonly string[]): string {
  const warnings = changes.filter((c) => !c.guarded);
  if (warnings.length) record.outsideWarnings = warnings.map((c) => ({ where: c.where, what: c.what, why: c.why ?? 'not saved' }));
  record.unrecorded = changes.filter((c) => c.ignored).map((c) => c.where);
  const left = changes.filter((c) => c.ignored && !c.undone).map((c) => c.where);
  if (left.length) state.unrecordedChanged = [...new Set([...(state.unrecordedChanged ?? []), ...left])].sort();
  if (!stopsTheRun(changes)) return outsideWarning(record.n, warnings);
  const text = outsideSentence(changes);
  record.note = rolledBack.length ? `${text} What it changed in the workspace was rolled back too.` : text;
  return text;
}

/** The agent changed what no snapshot records: that was put back where it could be; its attempt is undone and the run stops. */
export async function stopForOutside(ctx: LoopContext, state: RunState, record: IterationRecord, changes: OutsideChange[]): Promise<Stop> {
  const rolledBack = await restoreIfChanged(ctx.deps, state, record.beforeSnapshot);
  record.files = rolledBack;
  record.rolledBack = rolledBack.length > 0;
  const text = noteOutside(state, record, changes, rolledBack);
  recordAttempt(ctx, state, record, 'invalid-proposal');
  return escalate('actor-error', text);
}

/** Before an agent runs: what it must leave alone outside the snapshotted tree is looked at and saved. */
export async function markOutside(ctx: LoopContext, state: RunState): Promise<OutsideMark | null> {
  if (!ctx.deps.outside) return null;
  const mark = await ctx.deps.outside.mark();
  for (const w of mark.warnings) ctx.warn(state, w);
  return mark;
}
