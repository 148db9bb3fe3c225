// The actor is asked, through the turn chosen for the run, and what it answered is looked at before anything is applied.
import type { RunState } from '../../../ports/runState';
import type { Attempt, StepResult } from '../attempt';
import type { LoopContext } from '../loopContext';

export async function ask(ctx: LoopContext, state: RunState, attempt: Attempt): Promise<StepResult> {
  const answer = await attempt.turn.ask(ctx, state, attempt);
  if ('over' in answer) return answer;
  attempt.response = answer;
  const limit = attempt.prompt?.maxOutputTokens;
  if (limit !== undefined && !answer.usage.estimated && answer.usage.completion > limit * 1.1 + 16) {
    ctx.warn(state, `The model server reported ${answer.usage.completion.toLocaleString('en-US')} completion tokens for an answer limited to ${limit.toLocaleString('en-US')} (max_tokens): it does not honour the limit, so one answer can overshoot the token budget.`);
  }
  return attempt.turn.afterAsk(ctx, state, attempt);
}
