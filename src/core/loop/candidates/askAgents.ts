// N agents to one prompt (`--candidates N` with an agent CLI): each works at once in its own copy of the attempt's
// starting state, never in the person's workspace, and what its copy ends in becomes its candidate — tried, picked and
// written into the workspace by the same steps as a model's answers (steps/candidates.ts). Budgets stay deadlines:
// each agent is handed an even share of the tokens left (the shares never add up past the budget) and the time left;
// every agent's requests and tokens are charged. The copies are removed however the agents end.
import { ActorError } from '../../../ports/actor';
import type { ActorResponse, TokenUsage } from '../../../ports/actor';
import type { WorkspaceCopy } from '../../../ports/snapshots';
import type { RunState } from '../../../ports/runState';
import { recordOf, type Attempt, type AttemptOver } from '../attempt';
import { runSignal, type LoopContext } from '../loopContext';
import { chargeCall, recordAttempt } from '../record';
import { StopLoop } from '../stopLoop';
import { agentBounds } from '../turns/agentBounds';
import { maxAnswerBytes } from '../turns/turn';
import type { CandidateAnswer } from './askMany';

const NO_USAGE: TokenUsage = { prompt: 0, completion: 0 };

/**
 * Runs the attempt's agents; sets `attempt.answers` and returns the one the agent rules look at first (its account,
 * its failure): the first whose copy changed, else the first that finished. Every agent failing stops the run as one
 * failing agent does; every agent past its own time limit makes an invalid attempt, as one does.
 */
export async function askAgents(ctx: LoopContext, state: RunState, attempt: Attempt, wanted: number): Promise<ActorResponse | AttemptOver> {
  const copies = ctx.deps.copies;
  if (!copies) throw new Error('Several agents per attempt need copies of the workspace, and this run has none.');
  const record = recordOf(attempt);
  const { user, system } = attempt.prompt ?? { user: '', system: '' };
  const bounds = agentBounds(state, ctx.deadline);
  const tokensLeft = bounds.tokensLeft === undefined ? undefined : Math.floor(bounds.tokensLeft / wanted);
  const signal = runSignal(ctx);
  const made: WorkspaceCopy[] = [];
  const failures: ActorError[] = [];
  let settled: PromiseSettledResult<CandidateAnswer>[];
  try {
    settled = await Promise.allSettled(Array.from({ length: wanted }, async (_, i): Promise<CandidateAnswer> => {
      const k = i + 1;
      const copy = await copies.make(attempt.from.snapshot);
      made.push(copy);
      state.requests += 1;
      record.requests = (record.requests ?? 0) + 1;
      try {
        const response = await ctx.deps.actor.propose({
          prompt: user, system, iteration: attempt.n, cwd: copy.dir, signal, maxAnswerBytes: maxAnswerBytes(ctx),
          tokensLeft, timeLeftMs: bounds.timeLeftMs, copy: { lane: k, state: () => copy.state() },
        });
        const snap = await copy.snapshots.snapshot(`agent-${attempt.n}-${k}`);
        charge(state, record, response.usage, response.kind === 'workspace-edited' ? response.agent?.requests : undefined);
        return { k, response, usage: response.usage, note: '', copied: { snapshot: snap.id, tree: snap.tree } };
      } catch (err) {
        if (signal.aborted || !(err instanceof ActorError)) throw err;
        failures.push(err);
        const usage = err.spent?.usage ?? NO_USAGE;
        charge(state, record, usage, err.spent?.agent.requests);
        return { k, response: null, usage, note: err.message };
      }
    }));
  } finally {
    // However the agents ended (Stop, the deadline, a failure): no copy outlives the attempt.
    await Promise.all(made.map((c) => c.remove().catch((err: Error) => ctx.warn(state, `A copy of the workspace at ${c.dir} could not be removed (${err.message}); delete it by hand.`))));
  }
  const thrown = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (thrown) throw thrown.reason;
  const answers = settled.map((s) => (s as PromiseFulfilledResult<CandidateAnswer>).value).sort((a, b) => a.k - b.k);
  attempt.answers = answers;
  const came = answers.filter((a) => a.response);
  const lead = came.find((a) => a.copied!.tree !== attempt.from.tree) ?? came[0];
  if (lead) {
    const response = lead.response!;
    if (response.kind !== 'workspace-edited') return response;
    if (response.agent) record.agent = response.agent;
    // "The same failure twice with nothing changed" looks at the workspace, which no agent touched: an agent that
    // failed yet changed its copy must not count as one that changed nothing.
    if (response.failure && lead.copied!.tree !== attempt.from.tree) return { ...response, failure: undefined };
    return response;
  }
  if (failures.every((f) => f.category === 'timeout')) {
    record.note = failures[0]!.message;
    const recorded = recordAttempt(ctx, state, record, 'invalid-proposal');
    state.feedback = `${failures[0]!.message} Make a smaller change that finishes in time.`;
    return recorded;
  }
  const first = failures.find((f) => f.category !== 'timeout')!;
  record.note = first.message;
  recordAttempt(ctx, state, record, 'invalid-proposal');
  throw new StopLoop({ outcome: 'escalated', reason: first.budget ?? 'actor-error', text: first.message });
}

/** One agent's tokens and calls; its requests as its gateway counted them (the one counted when it started replaced). */
function charge(state: RunState, record: NonNullable<Attempt['record']>, usage: TokenUsage, requests: number | undefined): void {
  chargeCall(state, record, usage);
  if (requests === undefined) return;
  record.requests = (record.requests ?? 0) + requests - 1;
  state.requests += requests - 1;
}
