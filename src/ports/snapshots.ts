// The snapshot port: how the loop records workspace states and puts them back. Implemented in snapshot/.

/** Thrown by a snapshot store that cannot record the workspace as it is (a path git refuses): no restore can be trusted. */
export class WorkspaceNotRecordable extends Error {
  constructor(message: string, readonly path: string) {
    super(message);
    this.name = 'WorkspaceNotRecordable';
  }
}

/**
 * The state folder (snapshot store, run journal) disappeared while a run was on — deleted or moved by something
 * else: nothing recorded can be restored from it any more, so the run must stop where it is.
 */
export class StateDirLost extends Error {
  constructor(readonly where: string) {
    super(`The state folder ${where} disappeared while the run was on (deleted or moved by something else), so no snapshot is left to roll back from`);
    this.name = 'StateDirLost';
  }
}

export interface SnapshotRef {
  id: string;
  /** git tree hash of the recorded files: equal trees mean equal workspace states. */
  tree: string;
}

/** A path a restore is about to write: the blob it gets, or null when it is removed. */
export interface PlannedRestore {
  path: string;
  blob: string | null;
}

/**
 * Lines of the state a change was carried onto that the change and the state's own differences both touched:
 * `count` lines from line `start` (1-based), or, with `count` 0, lines that state lacks (the other side added them)
 * right after its line `start`.
 */
export interface LineSpan {
  start: number;
  count: number;
}

/** A path a change could not be carried onto: the lines both sides changed, or none when the file as a whole (binary, removed, created) was. */
export interface ReplayConflict {
  path: string;
  lines: LineSpan[];
}

/** A change carried over onto another state: the snapshot it makes and the paths that differ from that state. */
export type Replayed = { ok: true; snapshot: SnapshotRef; paths: string[] } | { ok: false; conflicts: ReplayConflict[] };

export interface SnapshotStore {
  /**
   * Records the workspace as it is now. With `written`, the caller vouches that the store's last look (a snapshot or
   * changedSince) saw every other file as it still is, so only these paths are looked at: a scan of the whole
   * workspace fewer. A path missed that way is not lost: the next changedSince sees it.
   */
  snapshot(label: string, written?: readonly string[]): Promise<SnapshotRef>;
  restore(id: string): Promise<void>;
  /**
   * Returns only these paths to their content in the snapshot (removing those it does not hold), leaving every
   * other file as it is: a rollback must never write over what a person changed meanwhile.
   */
  restorePaths(id: string, paths: readonly string[], beforeWrite?: (plan: PlannedRestore[]) => Promise<void>): Promise<void>;
  /** Workspace-relative paths that differ now from the snapshot. */
  changedSince(id: string): Promise<string[]>;
  /** Workspace-relative paths that differ between two snapshots. */
  changedBetween(fromId: string, toId: string): Promise<string[]>;
  /** A shell command a person can run to print one file as a snapshot holds it (for notes that point at kept text). */
  showCommand(id: string, relPath: string): string;
  /** Unified diff between two snapshots (optionally limited to some paths). */
  diff(fromId: string, toId: string, paths?: string[]): Promise<string>;
  /** Content of one file as recorded in a snapshot, or null when absent. */
  readFile(id: string, relPath: string): Promise<Buffer | null>;
  /**
   * The change from one snapshot to another carried over onto a third, recorded as a new snapshot without touching
   * the workspace: each path the change touched takes its new content where the third holds what the change started
   * from, else the change's own lines (its zero-context diff) put into the third's text. `conflicts`: where both changed
   * the very same lines, or a file as a whole (nothing recorded then); changes to neighbouring lines are no conflict.
   */
  replay?(fromId: string, toId: string, ontoId: string): Promise<Replayed>;
  /** Snapshots whose trees the caller already knows (a saved session's states): a new process need not ask for them. */
  remember?(refs: readonly SnapshotRef[]): void;
  /**
   * The paths among these that snapshots would not record (git-ignored or excluded): an edit there could never be
   * rolled back.
   */
  unrecorded(paths: string[]): Promise<string[]>;
  /**
   * The identity of a recorded state leaving some paths out (the verifier's own reports and caches), so two visits
   * of the same source state compare equal whatever the test run wrote.
   */
  identity(id: string, without: readonly string[]): Promise<string>;
  /**
   * Size, modification time, inode and mode of every file the snapshots do not record (git-ignored: dependencies, local
   * settings), so what an agent CLI changed there can at least be seen; null when there are too many to look at.
   */
  unrecordedFingerprint?(): Promise<Map<string, string> | null>;
}

/**
 * A recorded state checked out in a folder of its own, outside the workspace (`--candidates` with an agent,
 * `--candidates-parallel`): what happens there never touches the person's files. Its snapshots are the workspace
 * store's too, so the state a copy ends in can be compared with, and restored into, the workspace.
 */
export interface WorkspaceCopy {
  readonly dir: string;
  /** The copy's own store: same objects and rules as the workspace's, this folder as its files. */
  readonly snapshots: SnapshotStore;
  /** The copy's current tree (what a snapshot taken now would record), for an agent's gateway. */
  state(): Promise<string>;
  /** Deletes the folder; the snapshots taken of it stay readable until the next run starts. */
  remove(): Promise<void>;
}

export interface WorkspaceCopies {
  /** A new copy of this snapshot's state, the workspace's installed dependencies linked in, not copied. */
  make(snapshot: string): Promise<WorkspaceCopy>;
}
