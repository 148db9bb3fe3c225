// The first step of an attempt: the prompt (redacted), the room the token budget leaves for the answer, the agent's
// mark outside the snapshots, and the attempt's record — from here on a stop records the attempt.
import type { RunState } from '../../../ports/runState';
import { estimateTokens } from '../../../base/estimateTokens';
import { buildPrompt, DEFAULT_PROMPT_OPTIONS, systemPrompt } from '../../prompt/prompt';
import { DEFAULT_CONTEXT_TOKENS, gatherContext } from '../../prompt/gatherContext';
import type { GatheredContext } from '../../prompt/gatherContext';
import type { ContextShown } from '../../../ports/runState';
import { isProtected } from '../../edits/pathPolicy';
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
  let context: ContextShown | undefined;
  if (attempt.turn.needsModel) {
    const prompt = await attemptPrompt(ctx, state, attempt.startedAt);
    const room = tokenRoom(state, estimateTokens(prompt.system) + estimateTokens(prompt.user));
    if (!room.ok) return over(escalate('budget-tokens', room.text));
    attempt.prompt = { user: prompt.user, system: prompt.system, maxOutputTokens: room.maxOutputTokens };
    context = prompt.context;
  }
  attempt.outside = await attempt.turn.mark(ctx, state);
  attempt.record = newRecord(attempt.n, attempt.startedAt, attempt.from);
  if (context) attempt.record.context = context;
  return undefined;
}

/**
 * Test output, file contents and the model's own earlier words can all carry a secret: none of it reaches the model.
 * An outside agent made its edits before it asked for the check: no prompt is built for it (nor its files read).
 */
async function attemptPrompt(ctx: LoopContext, state: RunState, now: number): Promise<{ user: string; system: string; context?: ContextShown }> {
  const { deps, policy } = ctx;
  if (deps.actor.external) return { user: '', system: '' };
  const protectedRel = (rel: string) => isProtected(policy, rel);
  const context = await gatherContext({
    state, policy, reader: deps.codeReader, budgetTokens: state.config.contextTokens ?? DEFAULT_CONTEXT_TOKENS, isProtected: protectedRel,
    // Git-ignored files (.env, local settings) are not recorded by snapshots and often hold secrets: never shown.
    unrecorded: (real) => deps.snapshots.unrecorded(real),
    extraHints: state.codeHints,
  });
  const user = deps.redactor.text(buildPrompt(state, now, {
    ...DEFAULT_PROMPT_OPTIONS, isProtected: protectedRel, allowTestEdits: deps.config.allowTestEdits, editsWorkspace: deps.actor.editsWorkspace, context,
  }));
  return { user, system: deps.redactor.text(systemPrompt(deps.config.allowTestEdits, deps.actor.editsWorkspace)), context: shownOf(context) };
}

function shownOf(context: GatheredContext): ContextShown {
  return { regions: context.regions.length, files: context.files.length, tokens: context.tokens, left: context.left };
}
