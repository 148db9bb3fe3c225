// The workspace after the tests ran: what they wrote is theirs (reports, caches), unless it is a protected test file
// (the code under test wrote into its own tests) or a path no edit of the loop explains (a person saving meanwhile).
import type { SnapshotRef } from '../../ports/snapshots';
import type { RunState } from '../../ports/runState';
import { isProtected } from '../edits/pathPolicy';
import type { LoopContext } from './loopContext';

export interface Settled {
  snap: SnapshotRef;
  tampered: string[];
  foreign: string[];
  kept?: SnapshotRef;
}

/**
 * The workspace after the tests ran. What changed while only the tests ran was written by them: reports and caches,
 * not a state of the code — unless the loop itself edits that file (a source the tests rewrite stays part of the
 * state), or it is a protected test file the tests do not always write: then the code under test wrote into its
 * own tests, which is `tampered` (the caller rolls the edit back).
 */
export async function settle(ctx: LoopContext, state: RunState, after: SnapshotRef, edited: readonly string[] = []): Promise<Settled> {
  const { snapshots } = ctx.deps;
  const changed = await snapshots.changedSince(after.id);
  if (changed.length === 0) return { snap: after, tampered: [], foreign: [] };
  const isBaseline = state.iterations.length === 0 && edited.length === 0;
  const tampered = isBaseline ? [] : changed.filter((p) => isProtected(ctx.policy, p) && !state.artifacts.includes(p));
  // Whoever wrote them (the code under test, or a person saving meanwhile: nothing tells the two apart), what was
  // written is kept in a snapshot before the rollback puts the files back.
  if (tampered.length) return { snap: after, tampered, foreign: [], kept: await snapshots.snapshot('tests-wrote', []) };
  const touched = new Set([...edited, ...state.iterations.flatMap((it) => it.files)]);
  // The test command's own outputs are learned from the first run; a path first written later, by no edit of the
  // loop, may be a person's save: it is not taken as the tests' (see foreign).
  const foreign = isBaseline ? [] : changed.filter((p) => !touched.has(p) && !state.artifacts.includes(p));
  if (isBaseline) await ctx.known.addArtifacts(state, changed.filter((p) => !touched.has(p)));
  // The look just taken is the settled state: recorded as it saw it, without a second scan.
  return { snap: await snapshots.snapshot('settled', []), tampered: [], foreign };
}

export function foreignSentence(paths: readonly string[]): string {
  const shown = `${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ` and ${paths.length - 3} more` : ''}`;
  return `Files changed while the tests ran that the loop did not write (${shown}); stopped and left everything as it is, so nothing of yours is overwritten. If your test command writes them, add them to the snapshot excludes (greenloop.snapshotExcludes).`;
}
