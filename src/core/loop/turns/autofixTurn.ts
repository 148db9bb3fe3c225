// The project's own fixers' turn (`eslint --fix`, `gofmt -w`): no model, no prompt, no token. Like an agent they
// write the workspace themselves, so their change is accepted path by path under the same rules (protected files,
// suppressions), then judged, kept or undone by the same steps as any attempt.
import type { ActorResponse } from '../../../ports/actor';
import type { FixTarget, Fixers } from '../../../ports/fixers';
import type { OutsideMark } from '../../../ports/outside';
import type { SnapshotRef } from '../../../ports/snapshots';
import type { RunState } from '../../../ports/runState';
import { abortError } from '../../../base/abort';
import { acceptAgentEdits } from '../../edits/acceptAgentEdits';
import type { ApplyContext } from '../../edits/applyContext';
import { over, recordOf, type Attempt, type AttemptOver, type StepResult, type Turn } from '../attempt';
import { runSignal, type LoopContext } from '../loopContext';
import { restoreIfChanged } from '../states/rollback';

export class AutofixTurn implements Turn {
  readonly kind = 'autofix';
  readonly needsModel = false;

  constructor(private readonly fixers: Fixers, private readonly targets: readonly FixTarget[]) {}

  async beforePrompt(): Promise<void> {}

  // The fixers are the project's own tools, like its checkers: the caches they write are theirs, not a stranger's.
  async mark(): Promise<OutsideMark | null> {
    return null;
  }

  async ask(ctx: LoopContext, state: RunState, attempt: Attempt): Promise<ActorResponse | AttemptOver> {
    const record = recordOf(attempt);
    record.actor = 'autofix';
    const signal = runSignal(ctx);
    // The fixers write where they like: a kill now leaves their half-done changes, which the next start must undo.
    await ctx.deps.journal?.intend({ kind: 'agent', attempt: attempt.n, returnTo: state.current.snapshot, paths: [], artifacts: state.artifacts });
    record.commands = await this.fixers.run(this.targets, { signal, timeoutMs: ctx.deps.config.verifyTimeoutS * 1000 });
    if (signal.aborted) {
      // Stopped by the person or the clock in the middle of a write: nothing of it stays.
      await restoreIfChanged(ctx.deps, state, state.current.snapshot);
      throw abortError(signal);
    }
    // A fixer that cannot run is one sentence; the model gets the errors as they are.
    for (const c of record.commands) if (c.problem) ctx.warn(state, c.problem);
    // Nothing changed: nothing to judge, and no attempt in the history; the model's turn comes as if none had run.
    if ((await ctx.deps.snapshots.changedSince(state.current.snapshot)).length === 0) {
      ctx.events.emit({ type: 'proposal-received', n: attempt.n, tokens: record.tokens, files: [], commands: record.commands });
      return over(null);
    }
    return { kind: 'workspace-edited', transcript: '', usage: { prompt: 0, completion: 0 } };
  }

  async afterAsk(): Promise<StepResult> {
    return undefined;
  }

  apply(ctx: ApplyContext, state: RunState, attempt: Attempt): Promise<boolean> {
    return acceptAgentEdits(ctx, state, recordOf(attempt), 'fixers');
  }

  // Their edits were recorded when they were accepted: no second look at the whole workspace.
  async snapshotAfter(ctx: LoopContext, attempt: Attempt): Promise<SnapshotRef> {
    const record = recordOf(attempt);
    if (record.afterSnapshot && record.treeHash) return { id: record.afterSnapshot, tree: record.treeHash };
    return ctx.deps.snapshots.snapshot(`iteration-${attempt.n}`, undefined);
  }
}
