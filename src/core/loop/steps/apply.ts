// The edit reaches the workspace: a model's blocks written, or an agent's edits accepted path by path, each write
// announced in the journal first; then the snapshot of the state it made.
import type { RunState } from '../../../ports/runState';
import type { ApplyContext } from '../../edits/applyContext';
import { recordOf, type Attempt, type StepResult } from '../attempt';
import { runSignal, type LoopContext } from '../loopContext';
import { recordAttempt } from '../record';

export async function apply(ctx: LoopContext, state: RunState, attempt: Attempt): Promise<StepResult> {
  const { deps } = ctx;
  const record = recordOf(attempt);
  ctx.lastApply.forget();
  const applyCtx: ApplyContext = {
    cwd: deps.cwd, policy: ctx.policy, snapshots: deps.snapshots, journal: deps.journal, memory: ctx.lastApply,
    intent: { attempt: attempt.n, returnTo: attempt.from.snapshot, artifacts: state.artifacts }, signal: runSignal(ctx),
  };
  const applied = await attempt.turn.apply(applyCtx, state, attempt);
  ctx.events.emit({ type: 'proposal-received', n: attempt.n, tokens: record.tokens, files: record.files, ...(record.commands ? { commands: record.commands } : {}) });
  if (!applied) return recordAttempt(ctx, state, record, 'invalid-proposal');

  state.inFlight = record.files;
  ctx.events.emit({ type: 'applied', n: attempt.n, files: record.files });
  const after = await attempt.turn.snapshotAfter(ctx, attempt);
  record.treeHash = after.tree;
  record.afterSnapshot = after.id;
  attempt.after = after;
  return undefined;
}
