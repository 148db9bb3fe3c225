// The write journal's port: before the loop writes a byte of the workspace it says so (which paths, their blob ids
// before and after, the snapshot a crash must return to). Implemented by store/runJournal.ts.

export interface PathIntent {
  path: string;
  /** Blob id before the loop writes (null: absent). */
  before: string | null;
  /** Blob id the loop is writing (null: it deletes the path). */
  after: string | null;
}

export interface WriteIntent {
  /**
   * apply: an edit is being written or tested; restore: a rollback; agent: an agent CLI is editing on its own; kept:
   * the loop's edits beyond the best state between attempts (paths: their blob ids as the loop left them).
   */
  kind: 'apply' | 'restore' | 'agent' | 'kept';
  attempt: number;
  /** The snapshot whose content these paths go back to if the run dies before the intent is settled. */
  returnTo: string;
  paths: PathIntent[];
  /** Files the test command writes (reports, caches): the loop's own, whatever their content. */
  artifacts: string[];
}

/** What the engine needs: say what is about to be written, and that it is done. */
export interface WriteJournal {
  intend(intent: WriteIntent): Promise<void>;
  settled(): Promise<void>;
  /**
   * Between attempts: nothing is being written, and these loop edits beyond the best state (kind `kept`; null: none)
   * go back to it if the run dies before the next call. Kept across the next attempt's intents until called again.
   */
  betweenAttempts?(kept: WriteIntent | null): Promise<void>;
}
