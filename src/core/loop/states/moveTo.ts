// The one way the run's current state changes: kept, settled, rolled back to or restored, it goes through here.
import type { RunState, StateRef, WitnessSummary } from '../../../ports/runState';
import { rollBack, type WorkspaceWriter } from './rollback';

/** The workspace is now at `to`: the state the next attempt starts from and the next guard compares with. */
export function moveTo(state: RunState, to: Readonly<{ snapshot: string; tree: string; witness: WitnessSummary }>): void {
  state.current = { snapshot: to.snapshot, tree: to.tree, witness: to.witness };
}

/** Back to `ref` by the loop's own writes only; the current state follows. Returns the paths left alone. */
export async function rollBackTo(w: WorkspaceWriter, state: RunState, ref: StateRef): Promise<string[]> {
  const leftAlone = await rollBack(w, state, ref);
  moveTo(state, ref);
  return leftAlone;
}
