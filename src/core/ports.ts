// The interfaces the loop engine stands on. Each has a real implementation (verify/, snapshot/, actors/)
// and tests may pass small fakes. Nothing here knows about VS Code.
import type { Witness } from '../verify/types';

export interface TokenUsage {
  prompt: number;
  completion: number;
  /** True when the provider gave no counts and they were estimated from text length. */
  estimated?: boolean;
}

export interface ActorRequest {
  /** The whole user prompt for this attempt (counter, failures, files, edit format). */
  prompt: string;
  /** Stable instructions (role, edit format rules). */
  system: string;
  iteration: number;
  cwd: string;
  /** Aborts on cancel and when the time budget runs out (the budget is a deadline). */
  signal: AbortSignal;
  /** Most completion tokens the token budget still allows, when it is set; sent as the provider's max_tokens. */
  maxOutputTokens?: number;
  /** Largest answer the actor may read, in bytes; past it the actor stops reading and throws AnswerTooLarge. */
  maxAnswerBytes?: number;
  /** Tokens the run's budget still allows (an agent's gateway holds it to them); undefined when unlimited. */
  tokensLeft?: number;
  /** Milliseconds the run's time budget still allows; undefined when unlimited. */
  timeLeftMs?: number;
}

/** One request an agent made, as its model gateway logged it. */
export interface AgentRequestLog {
  n: number;
  /** `upstream` when it went to the model; otherwise why the gateway answered it itself. */
  answeredBy: string;
  status: number;
  promptTokens: number;
  completionTokens: number;
  /** The tools the agent had just called before asking. */
  calls: string[];
  /** The answer in brief. */
  answer: string;
}

/** What an agent CLI did in one attempt, as the gateway and its own output tell it. */
export interface AgentAttempt {
  /** Model requests sent on to the model (the ones that cost). */
  requests: number;
  /** Requests the gateway answered itself (the attempt's bound was reached). */
  gatewayAnswers: number;
  /** Why the gateway first answered instead of the model, if it did: request-cap, repeated-step, … */
  stoppedBy: string | null;
  /** The agent's exit code (information, never a verdict); null when it was stopped. */
  exitCode: number | null;
  /** The model's last words to the agent in this attempt: what it says it did. */
  lastMessage: string;
  /** The agent's own output, its tail, secrets masked. */
  output: string;
  log: AgentRequestLog[];
  /** The counts are exact usage from the model (false: some were estimated). */
  exactTokens: boolean;
}

/**
 * A model answers with text containing SEARCH/REPLACE blocks; an agent CLI edits the workspace itself.
 * Either way the engine validates what changed before it is verified.
 */
export type ActorResponse =
  | { kind: 'text'; text: string; usage: TokenUsage }
  | {
    kind: 'workspace-edited'; transcript: string; usage: TokenUsage;
    /**
     * The agent ended in failure (a non-zero exit). Its exit code never decides the attempt — the verifier judges
     * whatever it changed — but the same failure twice in one run stops the run: it will not mend itself.
     */
    failure?: { text: string; signature: string };
    /** The agent's own account and the gateway's, when it ran through one: its requests replace the one call counted. */
    agent?: AgentAttempt;
  };

/**
 * Why a model call failed, which decides how often it is tried again (core/retry.ts): a rate limit, a timeout or
 * a network fault may pass; a server error might; a deterministic refusal (400/401/403/404, a malformed body)
 * never will.
 */
export type ActorErrorCategory = 'rate-limit' | 'timeout' | 'network' | 'server' | 'deterministic';

/** transient: retried with backoff without spending an iteration; fatal: the run stops with actor-error. */
export class ActorError extends Error {
  readonly category: ActorErrorCategory;

  constructor(
    message: string,
    readonly kind: 'transient' | 'fatal',
    readonly retryAfterMs?: number,
    category?: ActorErrorCategory,
    /** What an agent spent before it failed or was stopped, so the report still shows its requests and tokens. */
    readonly spent?: { usage: TokenUsage; agent: AgentAttempt },
    /** The run's budget ran out inside the agent's attempt (its gateway saw it): the run ends with that reason. */
    readonly budget?: 'budget-tokens' | 'budget-time',
  ) {
    super(message);
    this.name = 'ActorError';
    this.category = category ?? (kind === 'fatal' ? 'deterministic' : 'network');
  }
}

/**
 * An answer past the size cap: the actor stopped reading it. Not a failure of the server (it is never retried) but
 * an unusable proposal: the engine records the attempt as invalid and the loop goes on by its usual rules.
 */
export class AnswerTooLarge extends Error {
  constructor(readonly limitBytes: number, readonly usage: TokenUsage) {
    super(answerTooLargeSentence(limitBytes));
    this.name = 'AnswerTooLarge';
  }
}

export function answerTooLargeSentence(limitBytes: number): string {
  return `The answer was larger than ${limitBytes.toLocaleString('en-US')} bytes (--max-answer-bytes, greenloop.maxAnswerBytes); it was not read further and nothing was changed — answer with only the SEARCH/REPLACE blocks the fix needs.`;
}

export interface Actor {
  /** Shown in progress lines and history, e.g. "openai:gpt-4o-mini @ http://127.0.0.1:8080/v1". */
  readonly label: string;
  /** True for agent CLIs that edit files themselves: their prompt asks for edits, not SEARCH/REPLACE blocks. */
  readonly editsWorkspace?: boolean;
  /**
   * The edits come from outside between attempts (an agent that calls Greenloop to check its work, `step`): what
   * changed since the last check is the attempt, never a person's edit to stop for.
   */
  readonly external?: boolean;
  propose(req: ActorRequest): Promise<ActorResponse>;
  /**
   * One cheap request before the first test run (a model list, never a completion): throws an ActorError in one
   * sentence when the model cannot be reached or refuses the key, so a setup problem is told in seconds, not
   * after the tests and every retry. Resolves when the answer says nothing either way.
   */
  check?(signal: AbortSignal): Promise<void>;
  /** Releases what the actor holds for the run (an agent's model gateway); called once the run is over. */
  dispose?(): Promise<void>;
}

/** Thrown when the verifier cannot run at all (command not found, hang past its timeout). */
export class VerifyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VerifyError';
  }
}

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

export interface Verifier {
  verify(signal?: AbortSignal): Promise<Witness>;
  /**
   * Runs the test command again for these test IDs only (the runner's own filter where it has one, else the whole
   * command), to tell a flaky test from a broken one. The witness may name other tests too.
   */
  rerun?(ids: string[], signal?: AbortSignal): Promise<Witness>;
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

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
