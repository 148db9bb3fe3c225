// What both turns share: one request to the actor, counted before it leaves, with the prompt, the answer cap and
// the run's budgets as this attempt sees them.
import type { ActorResponse } from '../../../ports/actor';
import type { RunState } from '../../../ports/runState';
import { DEFAULT_MAX_ANSWER_BYTES } from '../../../shared/config';
import { recordOf, type Attempt } from '../attempt';
import { runSignal, type LoopContext } from '../loopContext';
import { agentBounds } from './agentBounds';

/** Any actor is held to this cap, also one that does not stop reading at it itself. */
export function maxAnswerBytes(ctx: LoopContext): number {
  return ctx.deps.config.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
}

/** Asks the actor once; every request is counted, retried or not. */
export function proposeOnce(ctx: LoopContext, state: RunState, attempt: Attempt): Promise<ActorResponse> {
  const record = recordOf(attempt);
  const { deps } = ctx;
  const { user, system, maxOutputTokens } = attempt.prompt ?? { user: '', system: '' };
  state.requests += 1;
  record.requests = (record.requests ?? 0) + 1;
  return deps.actor.propose({
    prompt: user, system, iteration: attempt.n, cwd: deps.cwd, signal: runSignal(ctx), maxOutputTokens,
    maxAnswerBytes: maxAnswerBytes(ctx), ...agentBounds(state, ctx.deadline),
  });
}
