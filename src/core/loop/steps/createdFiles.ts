// Which of an attempt's files it created: those the best state did not hold and the state after the edit does. Only
// these can be code moved out of a checker's reach (checkedFiles.writtenOutsideCheckers): an edit to a file that
// already existed unchecked (a script outside tsconfig's "include") moved nothing, and is never flagged.
import type { IterationRecord, RunState } from '../../../ports/runState';
import type { Attempt } from '../attempt';
import type { LoopContext } from '../loopContext';

/** One look per written file in each of two snapshots the store already holds: no scan of the workspace. */
export async function createdFiles(ctx: LoopContext, state: RunState, attempt: Attempt, record: IterationRecord): Promise<string[]> {
  // No checker listed what it checked: nothing to compare a new file with, so nothing to look up.
  if (!attempt.after || !Object.keys(state.best.witness.checked ?? {}).length) return [];
  const { snapshots } = ctx.deps;
  const created: string[] = [];
  for (const file of record.files) {
    if ((await snapshots.readFile(state.best.snapshot, file)) !== null) continue;
    if ((await snapshots.readFile(attempt.after.id, file)) === null) continue; // created and removed again
    created.push(file);
  }
  return created;
}
