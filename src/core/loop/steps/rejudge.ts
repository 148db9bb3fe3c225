// A regression hidden in an edit judged by its failing tests alone is found by the next whole-suite run — and that
// run then blames the latest edit, which may be the very fix the loop is after. So when a whole run shows a
// regression while such edits are still in the workspace, the latest attempt is judged again on its own: back to the
// best state, its change carried over onto it line by line, the whole suite once more. A correct fix is kept; the
// earlier edits, which broke something nobody saw, go. Only when both changed the very same lines is the attempt
// rolled back with them, and the next prompt says which lines.
import type { IterationRecord, RunState } from '../../../ports/runState';
import { listForNote } from '../../judge/witnessCompare';
import { summarize } from '../../run/runStateFactory';
import { escalate } from '../bounds/termination';
import { over, recordOf, type Attempt, type StepResult } from '../attempt';
import type { LoopContext } from '../loopContext';
import { recordAttempt } from '../record';
import { settle } from '../settle';
import { rollBackTo } from '../states/moveTo';
import { journaledRestore, leftAloneSentence } from '../states/rollback';
import { judgeWithReruns } from './flaky';
import { createdFiles } from './createdFiles';
import { hiddenEdits } from './hiddenEdits';
import { sameLinesText } from './sameLines';
import { verifyOrStop } from './verifyOrStop';

export async function rejudge(ctx: LoopContext, state: RunState, attempt: Attempt): Promise<StepResult> {
  const { snapshots } = ctx.deps;
  const first = attempt.judged;
  if (!first || attempt.verdict !== 'regression' || attempt.settled?.tampered.length || !snapshots.replay) return undefined;
  const hidden = hiddenEdits(state);
  if (hidden.length === 0) return undefined;
  const record = recordOf(attempt);
  const earlier = attemptsText(hidden);
  const replayed = await snapshots.replay(attempt.from.snapshot, attempt.after!.id, state.best.snapshot);
  if (!replayed.ok) {
    attempt.sameLines = { earlier, where: sameLinesText(replayed.conflicts) };
    record.note = `${record.note}; it could not be judged without ${earlier} (judged only by the tests that failed before): both changed ${attempt.sameLines.where}`;
    return undefined;
  }
  // The way back first, then this attempt's change alone on top of the best state: both announced in the journal.
  state.inFlight = [...new Set([...(state.inFlight ?? []), ...replayed.paths])];
  const leftAlone = await rollBackTo(ctx.deps, state, state.best);
  if (leftAlone.length) {
    record.rolledBack = true;
    recordAttempt(ctx, state, record, 'regression');
    return over(escalate('user-edit', leftAloneSentence(leftAlone)));
  }
  await journaledRestore(ctx.deps, state, replayed.snapshot.id, replayed.paths);
  const after = await snapshots.snapshot('rejudged');
  attempt.after = after;
  record.treeHash = after.tree;
  record.afterSnapshot = after.id;

  const broke = first.j.newlyFailing;
  ctx.warn(state, `The whole-suite run of attempt ${attempt.n} found ${broke.length ? listForNote(broke) : 'a regression'} broken with ${earlier} still in the workspace, ${hidden.length === 1 ? 'an edit' : 'edits'} judged only by the tests that failed before; attempt ${attempt.n} was judged again on its own, on top of the best state, and ${hidden.length === 1 ? 'that edit was' : 'those edits were'} dropped.`);
  ctx.events.emit({ type: 'verifying', n: attempt.n, scope: 'full' });
  const judged = await judgeWithReruns(ctx, state, record, summarize(await verifyOrStop(ctx, state, record)), await createdFiles(ctx, state, attempt, record));
  const { j, witness } = judged;
  record.witness = witness;
  record.failing = witness.failing;
  record.loadErrorFiles = witness.loadErrorFiles ?? [];
  record.diagnostics = witness.diagnostics.length;
  record.ran = witness.ranCount ?? (witness.ran ? witness.ran.length : null);
  record.missing = j.missing;
  const again = `judged again on top of the best state, without ${earlier}: ${j.note}`;
  record.note = attempt.actorNote ? `${again} (${attempt.actorNote})` : again;
  attempt.judged = judged;
  attempt.settled = j.verdict === 'regression' ? null : await settle(ctx, state, after, record.files);
  attempt.verdict = attempt.settled?.tampered.length ? 'regression' : j.verdict;
  return undefined;
}

function attemptsText(its: readonly IterationRecord[]): string {
  const ns = its.map((it) => it.n);
  return ns.length === 1 ? `attempt ${ns[0]}'s edit` : `the edits of attempts ${ns.slice(0, -1).join(', ')} and ${ns[ns.length - 1]}`;
}
