// The typed "run could not start": the session says why, each host phrases it (exit code, tool error, toast), and
// nobody matches error names to tell a setup problem from an internal error.

export type NotStartedWhy =
  /** The state folder is unusable. */
  | 'state-dir'
  /** The folder is gone, has no git, another live run holds it, or finishing a dead run's work failed. */
  | 'workspace'
  /** The saved run's snapshots are no longer in the store. */
  | 'resume'
  /** The snapshots cannot record the workspace as it is (a path git refuses), found before the baseline. */
  | 'unrecordable'
  /** A focus that names no failing test. */
  | 'focus'
  /** The state folder disappeared before the loop wrote anything. */
  | 'state-dir-lost'
  /** Stopped before the first test run finished. */
  | 'cancelled';

export class RunNotStarted extends Error {
  constructor(message: string, readonly why: NotStartedWhy, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RunNotStarted';
  }
}
