// A model's turn: it answers with text that Greenloop applies. Model-only rules live here — retries of a transient
// failure, the answer size cap, and a person's edits during a call that can take minutes.
import { ActorError, AnswerTooLarge } from '../../../ports/actor';
import type { ActorResponse } from '../../../ports/actor';
import type { OutsideMark } from '../../../ports/outside';
import type { SnapshotRef } from '../../../ports/snapshots';
import type { RunState } from '../../../ports/runState';
import type { ApplyContext } from '../../edits/applyContext';
import { applyModelAnswer, writtenRealPaths } from '../../edits/applyModelAnswer';
import { recordOf, type Attempt, type AttemptOver, type StepResult, type Turn } from '../attempt';
import { runSignal, type LoopContext } from '../loopContext';
import { chargeCall, recordAttempt } from '../record';
import { StopLoop } from '../stopLoop';
import { answerReads } from './readTurn';
import { askMany } from '../candidates/askMany';
import { withRetries } from './retry';
import { maxAnswerBytes, proposeOnce } from './turn';
import { guardUserEdits } from './userEdits';

export class ModelTurn implements Turn {
  readonly kind = 'model';
  readonly needsModel = true;

  // A model's answer is checked after its call, which covers this moment too: one scan of the workspace fewer per attempt.
  async beforePrompt(): Promise<void> {}

  // A model writes nothing itself: nothing outside the snapshots to watch.
  async mark(): Promise<OutsideMark | null> {
    return null;
  }

  // An answer that asks to READ code gets another call of the same attempt, with the code shown (readTurn.ts). With
  // several candidates, their reads are served only when no answer edits (candidates/askMany.ts picks the one read).
  async ask(ctx: LoopContext, state: RunState, attempt: Attempt): Promise<ActorResponse | AttemptOver> {
    const wanted = ctx.deps.config.candidates ?? 1;
    for (;;) {
      const response = wanted > 1 ? await askMany(ctx, state, attempt, wanted) : await callModel(ctx, state, attempt);
      if ('over' in response) return response;
      const next = await answerReads(ctx, state, attempt, response);
      if (next === 'apply') return response;
      if (next !== 'again') return next;
    }
  }

  // A model call can take minutes; a person may have typed meanwhile.
  async afterAsk(ctx: LoopContext, state: RunState): Promise<StepResult> {
    await guardUserEdits(ctx, state);
    return undefined;
  }

  async apply(ctx: ApplyContext, state: RunState, attempt: Attempt): Promise<boolean> {
    const response = attempt.response;
    return applyModelAnswer(ctx, state, recordOf(attempt), response?.kind === 'text' ? response.text : '');
  }

  // The answer was applied right after the check that found nothing else changed: only its files need a look.
  async snapshotAfter(ctx: LoopContext, attempt: Attempt): Promise<SnapshotRef> {
    return ctx.deps.snapshots.snapshot(`iteration-${attempt.n}`, writtenRealPaths(ctx.policy, recordOf(attempt).files));
  }
}

/** One call, retried on a transient failure, charged to the attempt; an answer past the cap is refused. */
async function callModel(ctx: LoopContext, state: RunState, attempt: Attempt): Promise<ActorResponse | AttemptOver> {
  const record = recordOf(attempt);
  const cap = maxAnswerBytes(ctx);
  let response: ActorResponse;
  try {
    response = await withRetries(() => proposeOnce(ctx, state, attempt), {
      ...ctx.deps.retry,
      clock: ctx.deps.clock,
      signal: runSignal(ctx),
      deadline: ctx.deadline ?? undefined,
      onRetry: (err, n, delayMs) => ctx.events.emit({ type: 'retrying', n: attempt.n, attempt: n, delayMs, message: err.message }),
    });
  } catch (err) {
    if (err instanceof AnswerTooLarge) return refuseTooLarge(ctx, state, attempt, err);
    if (err instanceof ActorError) throw new StopLoop({ outcome: 'escalated', reason: err.budget ?? 'actor-error', text: err.message });
    throw err;
  }
  if (response.kind === 'text' && Buffer.byteLength(response.text) > cap) return refuseTooLarge(ctx, state, attempt, new AnswerTooLarge(cap, response.usage));
  chargeCall(state, record, response.usage);
  return response;
}

/** An answer past the size cap was not read: an invalid proposal, told to the model in the next prompt. */
function refuseTooLarge(ctx: LoopContext, state: RunState, attempt: Attempt, tooLarge: AnswerTooLarge): AttemptOver {
  const record = recordOf(attempt);
  chargeCall(state, record, tooLarge.usage);
  record.note = tooLarge.message;
  ctx.events.emit({ type: 'proposal-received', n: record.n, tokens: record.tokens, files: [] });
  return recordAttempt(ctx, state, record, 'invalid-proposal');
}
