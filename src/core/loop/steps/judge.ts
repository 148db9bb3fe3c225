// The tests judge the edit: run (again when a green result might be flaky), compared with the best state, and the
// workspace settled after them unless the edit broke something (then it is rolled back, not settled).
import type { RunState, WitnessSummary } from '../../../ports/runState';
import { summarize } from '../../run/runStateFactory';
import { recordOf, type Attempt, type StepResult } from '../attempt';
import type { LoopContext } from '../loopContext';
import { settle } from '../settle';
import { listForNote } from '../../judge/witnessCompare';
import { carryOver, unchangedCheckers } from '../checkerReuse';
import { judgeWithReruns } from './flaky';
import { verifyOrStop } from './verifyOrStop';

export async function judge(ctx: LoopContext, state: RunState, attempt: Attempt): Promise<StepResult> {
  // Judged by its targeted run alone (steps/targeted.ts): the whole suite has nothing to add.
  if (attempt.judged) return undefined;
  const record = recordOf(attempt);
  ctx.events.emit({ type: 'verifying', n: attempt.n, scope: 'full' });
  const skip = await unchangedCheckers(ctx, attempt.from, attempt.after!);
  const measured = carryOver(summarize(await verifyOrStop(ctx, state, record, { skipCheckers: skip })), attempt.from.witness, skip);
  const judged = await judgeWithReruns(ctx, state, record, measured);
  const { j, witness } = judged;
  record.witness = witness;
  record.failing = witness.failing;
  record.loadErrorFiles = witness.loadErrorFiles ?? [];
  record.diagnostics = witness.diagnostics.length;
  record.ran = witness.ranCount ?? (witness.ran ? witness.ran.length : null);

  record.note = attempt.actorNote ? `${j.note} (${attempt.actorNote})` : j.note;
  record.missing = j.missing;
  warnEarlyStop(ctx, state, witness);
  warnPassedAlone(ctx, state, attempt, witness);
  attempt.judged = judged;
  attempt.settled = j.verdict === 'regression' ? null : await settle(ctx, state, attempt.after!, record.files);
  attempt.verdict = attempt.settled?.tampered.length ? 'regression' : j.verdict;
  return undefined;
}

/**
 * Tests that passed when run alone and failed in the whole suite on the same files: flaky, or broken by another
 * test's leftovers. Either way the whole suite's verdict stands, and the person is told why it differs.
 */
function warnPassedAlone(ctx: LoopContext, state: RunState, attempt: Attempt, witness: WitnessSummary): void {
  const back = (attempt.passedAlone ?? []).filter((id) => witness.failing.includes(id));
  if (back.length === 0) return;
  ctx.warn(state, `Attempt ${attempt.n}: ${listForNote(back)} passed when run alone but failed in the whole suite on the same files: a fix that works only some of the time (or only alone) is not green.`);
}

/** Once a run: the person is told the runner stops at the first failure, and which flag shows them all. */
export function warnEarlyStop(ctx: LoopContext, state: RunState, witness: WitnessSummary): void {
  if (!witness.stoppedEarly || state.warnings.some((w) => w.startsWith('The test run stopped early'))) return;
  ctx.warn(state, `The test run stopped early: ${witness.stoppedEarly}`);
}
