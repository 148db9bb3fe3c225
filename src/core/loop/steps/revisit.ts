// An edit that leads to a state already verified is judged from memory: its witness is known, the tests do not run
// again — and coming back to a kept state is a cycle, repeating a rolled-back edit a repeated proposal.
import type { RunState } from '../../../ports/runState';
import { leftAloneSentence } from '../states/rollback';
import { escalate } from '../bounds/termination';
import { over, recordOf, type Attempt, type StepResult } from '../attempt';
import type { LoopContext } from '../loopContext';
import { recordAttempt } from '../record';
import { settle } from '../settle';
import { moveTo, rollBackTo } from '../states/moveTo';

export async function revisit(ctx: LoopContext, state: RunState, attempt: Attempt): Promise<StepResult> {
  const record = recordOf(attempt);
  const after = attempt.after!;
  const found = ctx.known.find(state, await ctx.known.identityOf(state, after.id));
  if (!found) return undefined;
  const { earlier } = found;
  // By its snapshot: attempt 0 is the start or the project's fixers, and a resumed run's start is no attempt's.
  const by = state.iterations.find((it) => it.afterSnapshot === earlier.snapshot);
  const when = by?.actor === 'autofix' ? "the state the project's fixers left" : earlier.iteration === 0 ? 'the state the run started from' : `the state after attempt ${earlier.iteration}`;
  const known = by?.witness ?? (earlier.iteration === 0 ? state.baseline.witness : state.floor.witness);
  record.witness = known;
  record.failing = known.failing;
  record.loadErrorFiles = known.loadErrorFiles ?? [];
  record.diagnostics = known.diagnostics.length;
  if (found.kind === 'kept') {
    // Back in a state the loop kept: leave the workspace there (it is a state it was in) and stop.
    const { snap: settledAfter } = await settle(ctx, state, { id: record.afterSnapshot!, tree: record.treeHash! }, record.files);
    moveTo(state, { snapshot: settledAfter.id, tree: settledAfter.tree, witness: known });
    record.note = `returned the workspace to ${when} (known, so not tested again)`;
    recordAttempt(ctx, state, record, 'no-progress');
    return over(escalate('cycle', `Attempt ${record.n} returned the workspace to ${when}; the model is going in circles.`));
  }
  const leftAlone = await rollBackTo(ctx.deps, state, state.best);
  record.rolledBack = true;
  record.note = `made the same change as attempt ${earlier.iteration}, which was rolled back as a regression (known, so not tested again); rolled back`;
  recordAttempt(ctx, state, record, 'regression');
  if (leftAlone.length) return over(escalate('user-edit', leftAloneSentence(leftAlone)));
  return over(escalate('repeated-proposal', `Attempt ${record.n} made the same change as attempt ${earlier.iteration}, which had broken tests and was rolled back.`));
}
