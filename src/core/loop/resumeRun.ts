// How an escalated or cancelled run continues: the person's grant and hint, the patience window restarted, and the
// workspace as they left it taken as the new floor when they changed it meanwhile.
import type { RunState, StateRef } from '../../ports/runState';
import { summarize } from '../run/runStateFactory';
import { applyGrant, type Grant } from './bounds/budget';
import { runSignal, type LoopContext } from './loopContext';
import { settle } from './settle';
import { moveTo } from './states/moveTo';
import { verifyOrThrow } from './steps/verifyOrStop';

/** The saved run is running again, with what the person granted. */
export function reopen(state: RunState, grant: Grant, now: number): void {
  if (state.finishedAt !== null) state.elapsedBeforeMs += state.finishedAt - state.startedAt;
  state.startedAt = now;
  applyGrant(state, grant, now);
  if (grant.hint.trim()) state.hints.push(grant.hint.trim());
  // The grant restarts the patience window on purpose and says so; iteration, token and time counters keep counting.
  state.consecutiveNoProgress = 0;
  const granted = [grant.iterations ? `+${grant.iterations} attempts` : '', grant.tokens ? `+${grant.tokens} tokens` : '', grant.minutes ? `+${grant.minutes} min` : ''].filter(Boolean);
  state.warnings.push(`Resumed${granted.length ? ` with ${granted.join(', ')}` : ''}${grant.hint ? ` and the hint "${grant.hint}"` : ''}; the patience window restarts.`);
  state.outcome = 'running';
  state.reason = null;
  state.reasonText = '';
  state.finalState = null;
  state.finishedAt = null;
}

/**
 * A resumed run starts from the workspace as the person left it. When they changed files while the run was
 * parked, that state becomes the floor (and the best): nothing the loop does later may remove their edits.
 */
export async function startFromPersonsWorkspace(ctx: LoopContext, state: RunState): Promise<void> {
  const { deps } = ctx;
  const snap = await deps.snapshots.snapshot('resume');
  // A run that never measured its start (the model or the tests could not be used) measures it now, whatever changed.
  const unmeasured = state.baseline.witness.unmeasured === true;
  if (snap.tree === state.current.tree && !unmeasured) return;
  const changed = await deps.snapshots.changedBetween(state.current.snapshot, snap.id);
  ctx.events.emit({ type: 'phase', phase: 'resume-tests' });
  const witness = summarize(await verifyOrThrow(ctx, runSignal(ctx)));
  const ref: StateRef = { snapshot: snap.id, tree: snap.tree, witness, iteration: state.iterations.length };
  const { snap: settled } = await settle(ctx, state, snap);
  moveTo(state, { snapshot: settled.id, tree: settled.tree, witness });
  state.floor = ref;
  state.best = ref;
  if (unmeasured) state.baseline = ref;
  state.kept.push({ identity: await ctx.known.identityOf(state, snap.id), snapshot: snap.id, iteration: ref.iteration });
  const shown = changed.length ? ` (${changed.slice(0, 3).join(', ')}${changed.length > 3 ? ` and ${changed.length - 3} more` : ''})` : '';
  state.warnings.push(unmeasured
    ? `Resumed: the tests ran for the first time in this run: ${witness.failing.length} failing.`
    : `Resumed from the workspace as you left it${shown}: ${witness.failing.length} failing; the run will never leave it worse than that, and never undo your edits.`);
}
