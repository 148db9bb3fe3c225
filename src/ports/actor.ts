// The actor port: what the loop asks a model or an agent CLI for, and what comes back. Implemented in actors/ and by
// the extension's language-model actor; tests may pass small fakes. Nothing here knows about VS Code.

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
  /**
   * One of several agents of an attempt (`--candidates N`), working in a copy of the workspace (`cwd`): each lane has
   * a gateway of its own, so each agent is bounded and counted alone; `state` reads the copy's files for it.
   */
  copy?: { lane: number; state: WorkspaceState };
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
  /** The call whose repeat ended the attempt (`repeated-tool-call`), as the next prompt names it. Absent: none. */
  repeatedCall?: string;
  /** The attempt's calls that may have changed files (edits, writes, shell commands that are no read), each once. */
  changingCalls?: AgentCall[];
}

/** A tool call of an agent's: its identity (the tool and its normalized arguments, hashed) and how a prompt names it. */
export interface AgentCall {
  key: string;
  call: string;
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
 * Why a model call failed, which decides how often it is tried again (core/loop/turns/retry.ts): a rate limit, a timeout or
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

/**
 * The workspace's state as a snapshot taken now would record it (the snapshot store's tree id, its excludes and
 * ignore rules applied): equal ids, equal files. Rejects when the state cannot be read.
 */
export type WorkspaceState = () => Promise<string>;

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
   * Up to `n` answers to the same prompt in one request (the Chat Completions `n`). Resolves with those that came —
   * fewer than `n` when the server ignores `n` — or null when this endpoint refuses `n`: the caller then asks one
   * request per answer. Absent: the caller always does. Each answer carries its share of the request's usage.
   */
  proposeMany?(req: ActorRequest, n: number): Promise<ActorResponse[] | null>;
  /**
   * One cheap request before the first test run (a model list, never a completion): throws an ActorError in one
   * sentence when the model cannot be reached or refuses the key, so a setup problem is told in seconds, not
   * after the tests and every retry. Resolves when the answer says nothing either way.
   */
  check?(signal: AbortSignal): Promise<void>;
  /**
   * Given once by the session that assembles the run, before the first attempt: how an agent's gateway reads the
   * workspace's state while the agent works, so a test run on the very files the agent last tested is seen as such.
   */
  watchWorkspace?(state: WorkspaceState): void;
  /** Releases what the actor holds for the run (an agent's model gateway); called once the run is over. */
  dispose?(): Promise<void>;
}
