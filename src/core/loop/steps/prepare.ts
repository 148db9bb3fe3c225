// The first step of an attempt: the prompt (redacted), the room the token budget leaves for the answer, the agent's
// mark outside the snapshots, and the attempt's record — from here on a stop records the attempt.
import type { RunState } from '../../../ports/runState';
import { estimateTokens } from '../../../base/estimateTokens';
import { buildPrompt, contextCandidates, DEFAULT_PROMPT_OPTIONS, systemPrompt } from '../../prompt/prompt';
import { checkReadable, isProtected } from '../../edits/pathPolicy';
import { tokenRoom } from '../bounds/budget';
import { escalate } from '../bounds/termination';
import { over, type Attempt, type StepResult } from '../attempt';
import type { LoopContext } from '../loopContext';
import { newRecord } from '../record';

export async function prepare(ctx: LoopContext, state: RunState, attempt: Attempt): Promise<StepResult> {
  const { deps } = ctx;
  ctx.events.emit({ type: 'iteration-started', n: attempt.n, max: state.limits.maxIterations, agent: deps.actor.editsWorkspace, ...(attempt.turn.needsModel ? {} : { autofix: true }) });
  await attempt.turn.beforePrompt(ctx, state);
  // The project's own fixers read no prompt and spend no token.
  if (attempt.turn.needsModel) {
    const { user, system } = await attemptPrompt(ctx, state, attempt.startedAt);
    const room = tokenRoom(state, estimateTokens(system) + estimateTokens(user));
    if (!room.ok) return over(escalate('budget-tokens', room.text));
    attempt.prompt = { user, system, maxOutputTokens: room.maxOutputTokens };
  }
  attempt.outside = await attempt.turn.mark(ctx, state);
  attempt.record = newRecord(attempt.n, attempt.startedAt, attempt.from);
  return undefined;
}

/**
 * Test output, file contents and the model's own earlier words can all carry a secret: none of it reaches the model.
 * An outside agent made its edits before it asked for the check: no prompt is built for it (nor its files read).
 */
async function attemptPrompt(ctx: LoopContext, state: RunState, now: number): Promise<{ user: string; system: string }> {
  const { deps, policy } = ctx;
  if (deps.actor.external) return { user: '', system: '' };
  const user = deps.redactor.text(buildPrompt(state, now, {
    ...DEFAULT_PROMPT_OPTIONS, isProtected: (rel) => isProtected(policy, rel), allowTestEdits: deps.config.allowTestEdits,
    editsWorkspace: deps.actor.editsWorkspace, policy, unrecorded: await unrecordedContext(ctx, state),
  }));
  return { user, system: deps.redactor.text(systemPrompt(deps.config.allowTestEdits, deps.actor.editsWorkspace)) };
}

/** Which of the files the prompt could show git ignores (asked once per attempt, of the real paths). */
async function unrecordedContext(ctx: LoopContext, state: RunState): Promise<Set<string>> {
  const real = contextCandidates(state, ctx.policy).map((rel) => checkReadable(ctx.policy, rel)).flatMap((c) => (c.ok ? [c.realRel] : []));
  return new Set(await ctx.deps.snapshots.unrecorded(real));
}
