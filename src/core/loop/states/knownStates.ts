// States the loop has already verified, by identity: a state's files without what the test command writes itself
// (JUnit reports, .tsbuildinfo, coverage). Reaching a kept state again is a cycle; reaching a rolled-back state
// again is the same edit again. Either is known without running the tests once more.
import type { SnapshotStore } from '../../../ports/snapshots';
import type { KnownState, RunState } from '../../../ports/runState';

export type Revisit =
  | { kind: 'kept'; earlier: KnownState }
  | { kind: 'rejected'; earlier: KnownState }
  | null;

export class KnownStates {
  constructor(private readonly snapshots: SnapshotStore) {}

  identityOf(state: RunState, snapshot: string): Promise<string> {
    return this.snapshots.identity(snapshot, state.artifacts);
  }

  /** Which earlier state this identity is, if any. */
  find(state: RunState, identity: string): Revisit {
    const kept = state.kept.find((k) => k.identity === identity);
    if (kept) return { kind: 'kept', earlier: kept };
    const rejected = state.rejected.find((k) => k.identity === identity);
    if (rejected) return { kind: 'rejected', earlier: rejected };
    return null;
  }

  /**
   * The test command wrote these paths: they join the artifacts, and every known identity is taken again
   * without them, so a later visit compares equal whatever the reports said.
   */
  async addArtifacts(state: RunState, paths: readonly string[]): Promise<void> {
    const fresh = paths.filter((p) => !state.artifacts.includes(p));
    if (fresh.length === 0) return;
    state.artifacts = [...state.artifacts, ...fresh].sort();
    for (const k of [...state.kept, ...state.rejected]) k.identity = await this.identityOf(state, k.snapshot);
  }
}
