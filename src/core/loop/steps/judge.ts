// The tests judge the edit: run (again when a green result might be flaky), compared with the best state, and the
// workspace settled after them unless the edit broke something (then it is rolled back, not settled).
import type { RunState, WitnessSummary } from '../../../ports/runState';
import { summarize } from '../../run/runStateFactory';
import { recordOf, type Attempt, type StepResult } from '../attempt';
import type { LoopContext } from '../loopContext';
import { settle } from '../settle';
import { createdFiles } from './createdFiles';
import { judgeWithReruns } from './flaky';
import { verifyOrStop } from './verifyOrStop';

export async function judge(ctx: LoopContext, state: RunState, attempt: Attempt): Promise<StepResult> {
  const record = recordOf(attempt);
  ctx.events.emit({ type: 'verifying', n: attempt.n });
  const witnessNow = summarize(await verifyOrStop(ctx, state, record));
  const judged = await judgeWithReruns(ctx, state, record, witnessNow, await createdFiles(ctx, state, attempt, record));
  const { j, witness } = judged;
  record.witness = witness;
  record.failing = witness.failing;
  record.loadErrorFiles = witness.loadErrorFiles ?? [];
  record.diagnostics = witness.diagnostics.length;
  record.ran = witness.ranCount ?? (witness.ran ? witness.ran.length : null);

  record.note = attempt.actorNote ? `${j.note} (${attempt.actorNote})` : j.note;
  record.missing = j.missing;
  warnEarlyStop(ctx, state, witness);
  attempt.judged = judged;
  attempt.settled = j.verdict === 'regression' ? null : await settle(ctx, state, attempt.after!, record.files);
  attempt.verdict = attempt.settled?.tampered.length ? 'regression' : j.verdict;
  return undefined;
}

/** Once a run: the person is told the runner stops at the first failure, and which flag shows them all. */
export function warnEarlyStop(ctx: LoopContext, state: RunState, witness: WitnessSummary): void {
  if (!witness.stoppedEarly || state.warnings.some((w) => w.startsWith('The test run stopped early'))) return;
  ctx.warn(state, `The test run stopped early: ${witness.stoppedEarly}`);
}
