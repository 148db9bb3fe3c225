// A person's edits are theirs: when files the loop owns changed since it last looked, the run stops before anything
// overwrites them.
import type { RunState } from '../../../ports/runState';
import type { LoopContext } from '../loopContext';
import { StopLoop } from '../stopLoop';

/** Someone else changed files the loop owns since it last looked: stop rather than overwrite their work. */
export async function guardUserEdits(ctx: LoopContext, state: RunState): Promise<void> {
  const changed = await ctx.deps.snapshots.changedSince(state.current.snapshot);
  if (changed.length === 0) return;
  const shown = changed.slice(0, 3).join(', ') + (changed.length > 3 ? ` and ${changed.length - 3} more` : '');
  throw new StopLoop({ outcome: 'escalated', reason: 'user-edit', text: `Files changed outside the loop during the run (${shown}); stopped so nothing of yours is overwritten.` });
}
