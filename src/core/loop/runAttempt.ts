// One attempt, as the short sequence of steps every attempt goes through. A step returns nothing (go on) or that the
// attempt is over, with the loop's decision; a new step is one more entry in STEPS.
import type { RunState } from '../../ports/runState';
import type { Stop } from './bounds/termination';
import { AttemptInterrupted, newAttempt, type Step, type Turn } from './attempt';
import type { LoopContext } from './loopContext';
import { StopLoop } from './stopLoop';
import { prepare } from './steps/prepare';
import { ask } from './steps/ask';
import { candidates } from './steps/candidates';
import { othersTried } from './candidates/othersTried';
import { apply } from './steps/apply';
import { revisit } from './steps/revisit';
import { targeted } from './steps/targeted';
import { judge } from './steps/judge';
import { rejudge } from './steps/rejudge';
import { keepOrUndo } from './steps/keepOrUndo';

/**
 * prepare → ask → (several answers: each tried, one chosen) → apply → (a known state: judged from memory) → (the failing tests first: judged by them when none
 * passes) → judge (the whole suite) → (a regression an earlier edit hid: the latest edit judged again on the best
 * state) → keep or undo.
 */
export const STEPS: readonly Step[] = [prepare, ask, candidates, apply, revisit, targeted, judge, rejudge, keepOrUndo];

/** One attempt. Returns the loop's decision: a stop, or null to go on. */
export async function runAttempt(ctx: LoopContext, state: RunState, turn: Turn, steps: readonly Step[] = STEPS): Promise<Stop | null> {
  const attempt = newAttempt(ctx, state, turn);
  try {
    for (const step of steps) {
      const result = await step(ctx, state, attempt);
      if (result) {
        othersTried(state, attempt);
        return result.stop;
      }
    }
  } catch (err) {
    throw err instanceof StopLoop ? err : new AttemptInterrupted(err, attempt);
  }
  throw new Error(`Attempt ${attempt.n} ended without a verdict: the last step must close it.`);
}
