// What an attempt did to the code files it wrote, from the best state to the state after it: which it created or
// deleted, and the lines each gained and lost. From these the judge tells code moved out of a checker's reach
// (checkedFiles.movedOutOfReach) from an edit that merely touches a file the checker never read.
import type { IterationRecord, RunState } from '../../../ports/runState';
import type { FileChange } from '../../judge/checkedFiles';
import { fileChange, isCodeFile } from '../../judge/checkedFiles';
import type { Attempt } from '../attempt';
import type { LoopContext } from '../loopContext';

/** Bigger files are generated, not moved code: left out rather than read twice. */
const MAX_BYTES = 2 * 1024 * 1024;

/** One look per written file in each of two snapshots the store already holds: no scan of the workspace. */
export async function createdFiles(ctx: LoopContext, state: RunState, attempt: Attempt, record: IterationRecord): Promise<FileChange[]> {
  const best = state.best.witness;
  // No checker ran: nothing can be out of its reach.
  if (!attempt.after || !Object.keys({ ...best.checked, ...best.checkers }).length) return [];
  const { snapshots } = ctx.deps;
  const changes: FileChange[] = [];
  for (const file of record.files.filter(isCodeFile)) {
    const before = await snapshots.readFile(state.best.snapshot, file);
    const after = await snapshots.readFile(attempt.after.id, file);
    if ((before === null && after === null) || (before?.length ?? 0) > MAX_BYTES || (after?.length ?? 0) > MAX_BYTES) continue;
    changes.push(fileChange(file, before?.toString('utf8') ?? null, after?.toString('utf8') ?? null));
  }
  return changes;
}
