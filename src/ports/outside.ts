// The outside-watch port: what an agent CLI changed outside the files the snapshots record. Implemented in outside/.

/** Something an agent CLI changed outside the files the snapshots record. */
export interface OutsideChange {
  /** As the person knows it: `.git/hooks/pre-commit`, `branch main`, `local.env`, `~/.bashrc`, `../notes.txt`. */
  where: string;
  what: 'created' | 'changed' | 'deleted' | 'replaced by a link';
  /** Put back exactly as it was before the agent ran (what it created removed). */
  undone: boolean;
  /** Why it could not be put back, in a few words. */
  why?: string;
  /** A git-ignored file of the workspace; `where` is its workspace-relative path. */
  ignored?: boolean;
  /**
   * A place the watch saved before the agent ran and answers for (the person's .git, home dotfiles, small ignored
   * files, a file created in the workspace): the agent's work there is put back, its attempt undone and the run
   * stopped. false: a place where Greenloop saves nothing and other programs write too (the folder around the
   * workspace, dependencies, ignored files too big to save); nothing tells the agent's write from theirs and
   * nothing can undo it, so the change is named as a warning and the attempt stands.
   */
  guarded: boolean;
}

/** What an agent CLI must leave as it is outside the snapshotted tree: the person's .git, ignored files, dotfiles. */
export interface OutsideWatch {
  /** Before the agent runs: look, and save what can be put back. */
  mark(): Promise<OutsideMark>;
}

export interface OutsideMark {
  /** What could not be saved or seen, to tell the person. */
  warnings: string[];
  /** After the agent ran or was stopped: what it changed, each put back where it can be. */
  check(): Promise<OutsideChange[]>;
}
