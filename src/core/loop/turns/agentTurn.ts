// An agent's turn: an agent CLI edits the workspace itself. Agent-only rules live here — the journal's intent before
// it runs, the watch outside the snapshotted tree, the gateway's charges, its own time limit, and its failures.
import { ActorError } from '../../../ports/actor';
import type { ActorResponse } from '../../../ports/actor';
import type { OutsideMark } from '../../../ports/outside';
import type { SnapshotRef } from '../../../ports/snapshots';
import type { RunState } from '../../../ports/runState';
import { isAbortError } from '../../../base/abort';
import { acceptAgentEdits } from '../../edits/acceptAgentEdits';
import type { ApplyContext } from '../../edits/applyContext';
import { summarizeHypothesis } from '../../edits/hypothesis';
import { escalate } from '../bounds/termination';
import { over, recordOf, type Attempt, type AttemptOver, type StepResult, type Turn } from '../attempt';
import type { LoopContext } from '../loopContext';
import { chargeCall, recordAttempt } from '../record';
import { restoreIfChanged } from '../states/rollback';
import { StopLoop } from '../stopLoop';
import { chargeAgentRequests } from './agentBounds';
import { markOutside, noteOutside, stopForOutside, stopsTheRun } from './outsideNote';
import { RetryOutlastsBudget } from './retry';
import { proposeOnce } from './turn';
import { askAgents } from '../candidates/askAgents';
import { guardUserEdits } from './userEdits';

export class AgentTurn implements Turn {
  readonly kind = 'agent';
  readonly needsModel = true;

  /** external: the agent made its edits before it asked for the check (Greenloop is its verifier, not its driver). */
  constructor(private readonly external: boolean) {}

  // From outside, the edits since the last check are the attempt itself, not someone else's.
  async beforePrompt(ctx: LoopContext, state: RunState): Promise<void> {
    if (!this.external) await guardUserEdits(ctx, state);
  }

  mark(ctx: LoopContext, state: RunState): Promise<OutsideMark | null> {
    return markOutside(ctx, state);
  }

  async ask(ctx: LoopContext, state: RunState, attempt: Attempt): Promise<ActorResponse | AttemptOver> {
    const wanted = ctx.deps.config.candidates ?? 1;
    // Several agents work in copies of the workspace, never in it: no journal intent, nothing of theirs to undo here.
    if (wanted > 1 && ctx.deps.copies) return askAgents(ctx, state, attempt, wanted);
    const record = recordOf(attempt);
    // An agent writes where it likes: a kill now leaves its half-done changes, which the next start must name.
    await ctx.deps.journal?.intend({ kind: 'agent', attempt: attempt.n, returnTo: state.current.snapshot, paths: [], artifacts: state.artifacts });
    try {
      // An agent CLI retries its own model calls; Greenloop never starts it again on a half-edited workspace.
      const response = await proposeOnce(ctx, state, attempt);
      if (response.kind === 'workspace-edited') chargeAgentRequests(state, record, response.agent);
      chargeCall(state, record, response.usage);
      return response;
    } catch (err) {
      // An agent may have half-edited the workspace before failing or being stopped: those are its writes, undone
      // before anything else happens.
      if (err instanceof ActorError || err instanceof RetryOutlastsBudget || isAbortError(err)) await restoreIfChanged(ctx.deps, state, state.current.snapshot);
      if (err instanceof ActorError && err.spent) chargeAgentRequests(state, record, err.spent.agent);
      // However the agent stopped, what it changed outside the snapshots is put back where it can be, and named.
      const changed = await attempt.outside?.check();
      if (stopsTheRun(changed) && err instanceof ActorError) throw new StopLoop(await stopForOutside(ctx, state, record, changed!));
      // Stopped by the clock or the person, or failed with only warnings outside: that stays the reason, and what
      // changed outside is told beside it.
      if (changed?.length) ctx.warn(state, noteOutside(state, record, changed, []));
      if (!(err instanceof ActorError)) throw err;
      if (err.category === 'timeout') {
        // Past its own time limit: its changes are already undone, the attempt is invalid and the loop goes on.
        chargeCall(state, record, err.spent?.usage ?? { prompt: 0, completion: 0, estimated: true });
        record.note = err.message;
        const recorded = recordAttempt(ctx, state, record, 'invalid-proposal');
        // After the record, which gives an invalid proposal its note as feedback: the advice must reach the next prompt.
        state.feedback = `${err.message} Make a smaller change that finishes in time.`;
        return recorded;
      }
      // The attempt is in the report with what it cost, though it ended in an error.
      chargeCall(state, record, err.spent?.usage ?? { prompt: 0, completion: 0 });
      record.note = err.message;
      recordAttempt(ctx, state, record, 'invalid-proposal');
      throw new StopLoop({ outcome: 'escalated', reason: err.budget ?? 'actor-error', text: err.message });
    }
  }

  async afterAsk(ctx: LoopContext, state: RunState, attempt: Attempt): Promise<StepResult> {
    const record = recordOf(attempt);
    const response = attempt.response;
    const changedOutside = await attempt.outside?.check();
    if (stopsTheRun(changedOutside)) return over(await stopForOutside(ctx, state, record, changedOutside!));
    if (changedOutside?.length) ctx.warn(state, noteOutside(state, record, changedOutside, []));
    if (response?.kind !== 'workspace-edited') return undefined;
    if (response.agent?.lastMessage) record.hypothesis = summarizeHypothesis(response.agent.lastMessage);
    // An agent's exit code is information: only the same failure twice with nothing changed (it cannot work) stops the run.
    if (response.failure && (await ctx.deps.snapshots.changedSince(attempt.from.snapshot)).length === 0) {
      const seen = state.agentFailures ?? (state.agentFailures = []);
      if (seen.includes(response.failure.signature)) {
        await restoreIfChanged(ctx.deps, state, attempt.from.snapshot);
        record.note = `${response.failure.text}\n(the same failure as an earlier attempt)`;
        recordAttempt(ctx, state, record, 'invalid-proposal');
        return over(escalate('actor-error', `The agent failed the same way twice: ${response.failure.text}`));
      }
      seen.push(response.failure.signature);
    }
    return undefined;
  }

  async apply(ctx: ApplyContext, state: RunState, attempt: Attempt): Promise<boolean> {
    const record = recordOf(attempt);
    const applied = await acceptAgentEdits(ctx, state, record);
    // The agent's failure is told, never judged: what it changed goes to the tests all the same.
    const response = attempt.response;
    attempt.actorNote = response?.kind === 'workspace-edited' && response.failure ? response.failure.text : '';
    if (attempt.actorNote && !applied) record.note = `${record.note} ${attempt.actorNote}`;
    return applied;
  }

  // Its edits were recorded when they were accepted: no second look at the whole workspace.
  async snapshotAfter(ctx: LoopContext, attempt: Attempt): Promise<SnapshotRef> {
    const record = recordOf(attempt);
    if (record.afterSnapshot && record.treeHash) return { id: record.afterSnapshot, tree: record.treeHash };
    return ctx.deps.snapshots.snapshot(`iteration-${attempt.n}`, undefined);
  }
}
