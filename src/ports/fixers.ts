// The port of a project's own fixers (`eslint --fix`, `gofmt -w`): the loop asks which failing checks have one the
// workspace's configuration enables, and runs them on the files their diagnostics name. Implemented in verify/fixers/.

/** A failing check (by its command, the witness's key) and the files its errors name. */
export interface FixTarget {
  check: string;
  files: string[];
}

/** One fixer command as it ran: what it was, how long it took, and a sentence when it could not do its work. */
export interface FixerCommand {
  /** As a person names the tool ("ESLint", "gofmt", or the check's own fixer). */
  tool: string;
  command: string;
  ms: number;
  exitCode: number | null;
  /** Not installed, timed out, crashed: one sentence; never a stop. Absent when it ran. */
  problem?: string;
}

export interface Fixers {
  /** The checks among `checks` that have a fixer here; the others are left to the model. */
  fixable(checks: readonly string[]): string[];
  /** Runs the fixer of each target, one after the other, in the workspace itself. */
  run(targets: readonly FixTarget[], opts: { signal: AbortSignal; timeoutMs?: number }): Promise<FixerCommand[]>;
}
