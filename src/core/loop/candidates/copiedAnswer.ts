// An agent's candidate reaches the workspace: the state its copy ended in, written over the attempt's starting state
// path by path (only the paths that differ), each write announced in the journal first so a kill returns them to the
// start. Then, when it is tried, the agent rules decide what of it may stay (acceptAgentEdits), as for one agent.
import { blobIdOnDisk } from '../../../base/blobId';
import type { IterationRecord, RunState } from '../../../ports/runState';
import { acceptAgentEdits } from '../../edits/acceptAgentEdits';
import type { ApplyContext } from '../../edits/applyContext';

/** Writes the copy's state over the workspace; returns the paths written (none: the agent changed nothing). */
export async function writeCopied(ctx: ApplyContext, state: RunState, from: string, copied: string): Promise<string[]> {
  const paths = await ctx.snapshots.changedBetween(from, copied);
  if (paths.length === 0) return [];
  state.inFlight = [...paths];
  await ctx.snapshots.restorePaths(copied, paths, async (plan) => {
    const entries = [];
    // In batches: thousands of files read at once could run out of file descriptors.
    for (let i = 0; i < plan.length; i += 64) {
      entries.push(...(await Promise.all(plan.slice(i, i + 64).map(async (p) => ({ path: p.path, before: await blobIdOnDisk(ctx.cwd, p.path), after: p.blob })))));
    }
    if (ctx.intent) await ctx.journal?.intend({ kind: 'apply', ...ctx.intent, paths: entries });
  });
  return paths;
}

/** Writes the copy's state and accepts it by the agent rules: false, the reason in `record.note`, when nothing may stay. */
export async function applyCopied(ctx: ApplyContext, state: RunState, record: IterationRecord, from: string, copied: string): Promise<boolean> {
  await writeCopied(ctx, state, from, copied);
  return acceptAgentEdits(ctx, state, record);
}
