// The last step of an attempt: a regression (or an edit whose tests wrote into the tests) is rolled back to the best
// state; anything else is kept, unless someone else wrote while the tests ran. Then the feedback for the next prompt
// and the record that closes the attempt.
import type { RunState } from '../../../ports/runState';
import { listForNote, type Judgement } from '../../judge/witnessCompare';
import { escalate } from '../bounds/termination';
import { over, recordOf, type Attempt, type StepResult } from '../attempt';
import type { LoopContext } from '../loopContext';
import { recordAttempt } from '../record';
import { foreignSentence } from '../settle';
import { moveTo, rollBackTo } from '../states/moveTo';
import { leftAloneSentence } from '../states/rollback';
import { sameLinesFeedback } from './sameLines';

export async function keepOrUndo(ctx: LoopContext, state: RunState, attempt: Attempt): Promise<StepResult> {
  const record = recordOf(attempt);
  const { j, witness } = attempt.judged!;
  const after = attempt.after!;
  const settled = attempt.settled;
  const verdict = attempt.verdict!;
  if (!settled || settled.tampered.length) {
    // Test files the edited code rewrote while the tests ran are the loop's doing: they go back too.
    if (settled?.tampered.length) state.inFlight = [...(state.inFlight ?? []), ...settled.tampered];
    const leftAlone = await rollBackTo(ctx.deps, state, state.best);
    record.rolledBack = true;
    state.rejected.push({ identity: await ctx.known.identityOf(state, after.id), snapshot: after.id, iteration: attempt.n });
    if (settled?.tampered.length && settled.kept) {
      const files = listForNote(settled.tampered);
      record.testsWrote = { snapshot: settled.kept.id, paths: settled.tampered };
      const show = ctx.deps.snapshots.showCommand(settled.kept.id, settled.tampered[0]!);
      record.note = `running the tests after this edit rewrote protected test files (${files}): the code under test wrote into its own tests; rolled back to the best state. What was written is kept (if you saved one of these files yourself meanwhile, your version is there): ${show}`;
      state.feedback = `after your edit, running the tests changed ${files}: code must never write into the tests; it was rolled back.`;
    } else {
      state.feedback = attempt.sameLines ? sameLinesFeedback(j, attempt.sameLines) : regressionFeedback(j);
      record.note = `${record.note}; rolled back to the best state`;
    }
    if (leftAlone.length) {
      recordAttempt(ctx, state, record, verdict);
      return over(escalate('user-edit', leftAloneSentence(leftAlone)));
    }
  } else {
    // Verification may write files (reports, caches); the settled snapshot makes them part of "before" for the next guard.
    const settledSnap = settled.snap;
    if (settled.foreign.length) {
      // Someone else wrote while the tests ran: keep everything as it is and stop before anything overwrites it.
      moveTo(state, { snapshot: settledSnap.id, tree: settledSnap.tree, witness });
      recordAttempt(ctx, state, record, verdict);
      return over(escalate('user-edit', foreignSentence(settled.foreign)));
    }
    moveTo(state, { snapshot: settledSnap.id, tree: settledSnap.tree, witness });
    state.kept.push({ identity: await ctx.known.identityOf(state, after.id), snapshot: after.id, iteration: attempt.n });
    if (j.verdict === 'progress' || j.verdict === 'green') {
      state.best = { snapshot: after.id, tree: after.tree, witness, iteration: attempt.n };
    }
    state.feedback = j.verdict === 'no-progress' ? `no test changed state (${j.note}); the edit is kept but did not help.` : j.note;
  }
  if (record.flaky?.length) state.feedback += ` (${listForNote(record.flaky)} failed and then passed on the same files: flaky, not counted either way.)`;
  if (record.reverted?.length) {
    // Said every time: the agent must know which of its edits never reached the tests, and why.
    const put = `Greenloop put back your changes to ${listForNote(record.reverted.map((r) => r.path))} before testing the rest: ${record.reverted.map((r) => r.reason).join(' ')}`;
    record.note = `${record.note}; ${put}`;
    state.feedback = `${state.feedback.replace(/[.\s]*$/, '')}. ${put}`;
  }
  return recordAttempt(ctx, state, record, verdict, { judgedAlone: !attempt.sameLines });
}

function regressionFeedback(j: Judgement): string {
  if (j.missing.length) return `after your edit ${j.missing.length} test${j.missing.length === 1 ? '' : 's'} that ran before did not run at all (${listForNote(j.missing)}): tests that disappear count as broken, never as fixed; it was rolled back.`;
  if (j.fewerRan) return `after your edit fewer tests ran (${j.fewerRan[0]} before, ${j.fewerRan[1]} now): tests that disappear count as broken, never as fixed; it was rolled back.`;
  return `your edit broke ${j.newlyFailing.slice(0, 5).map((s) => `\`${s}\``).join(', ')}; it was rolled back. Keep what passes passing.`;
}
