// The gateway's account of one attempt: every request the agent made, the tokens the upstream reported, and the
// decision, before each request, whether it may still go to the model. Pure bookkeeping: no sockets here.
import type { AgentCall, WorkspaceState } from '../../ports/actor';
import { conversationKey, lastCallsOf, lastStep } from './conversationStep';
import { StallWatch } from './stallWatch';

export interface AttemptBounds {
  /** Model requests this attempt may make; the next one is answered by the gateway. */
  maxRequests: number;
  /** Tokens the run's budget still allows (prompt + completion), or undefined when unlimited. */
  tokensLeft?: number;
  /** Epoch ms when the run's time budget ends, or undefined. */
  deadlineAt?: number;
  /** Workspace folder, so paths in tool results compare equal whatever the run's temp folders are. */
  cwd: string;
  /** Reads the workspace's state as each of the agent's test runs comes back; without it, files are never compared. */
  workspace?: WorkspaceState;
}

/** Why the gateway answered a request itself instead of sending it on. */
export type GatewayStop =
  | 'request-cap' | 'repeated-step' | 'tests-stalled' | 'unchanged-result' | 'same-files-retested' | 'repeated-tool-call'
  | 'token-budget' | 'time-budget' | 'attempt-closed';

export interface RequestLogEntry {
  n: number;
  /** Sent on to the model, or answered by the gateway (and why). */
  answeredBy: 'upstream' | GatewayStop;
  status: number;
  promptTokens: number;
  completionTokens: number;
  /** The upstream gave no usage: the counts are estimates. */
  estimated: boolean;
  /** The tool calls the agent's previous answer made (what it did just before asking again). */
  calls: string[];
  /** The model's answer in brief: its text's start, or the tools it called. */
  answer: string;
  durationMs: number;
}

export interface AttemptLedger {
  /** Requests the agent made in this attempt, all of them. */
  requests: number;
  /** Of those, the ones sent on to the model (the ones that cost). */
  forwarded: number;
  tokens: { prompt: number; completion: number; estimated: boolean };
  /** The first reason the gateway answered instead of the model, if it did. */
  stoppedBy: GatewayStop | null;
  /** The last text the model (not the gateway) wrote: the agent's own account of what it did. */
  lastText: string;
  log: RequestLogEntry[];
  /** The call whose repeat ended the attempt (`repeated-tool-call`), in brief, for the agent's next prompt. */
  repeatedCall: string | null;
  /** Every call of the attempt that may have changed files, each once: the next attempt's are compared with them. */
  changingCalls: AgentCall[];
}

export type Admission = { forward: true; maxTokens?: number } | { forward: false; why: GatewayStop; text: string };

const STOP_TEXT: Record<GatewayStop, string> = {
  'request-cap': "This attempt's budget of model requests is spent; stop now and do not call any more tools. Greenloop will run the tests on what you changed.",
  'repeated-step': 'You made the same calls and got the same results as earlier in this attempt: you are going in circles. Stop now and do not call any more tools; Greenloop will run the tests on what you changed.',
  'tests-stalled': 'Your last test runs failed as many tests as before, though you kept changing files: this attempt is not making progress. Stop now and do not call any more tools; Greenloop will run the tests on what you changed and decide what comes next.',
  'unchanged-result': 'You made the same call again and got the same result as the last times: nothing you did in between changed it. Stop now and do not call any more tools; Greenloop will run the tests on what you changed.',
  'same-files-retested': 'You ran the tests again on exactly the files your last test run saw, and the same tests failed: nothing you did in between changed a file. Stop now and do not call any more tools; Greenloop will run the tests on what you changed and decide what comes next.',
  'repeated-tool-call': 'You made the same call again, and your tests failed the same tests with the same messages as before it: repeating it changes nothing they see. Stop now and do not call any more tools; Greenloop will run the tests on what you changed and decide what comes next.',
  'token-budget': "The run's token budget is spent; stop now and do not call any more tools.",
  'time-budget': "The run's time budget is spent; stop now and do not call any more tools.",
  'attempt-closed': 'This attempt is over; stop now and do not call any more tools.',
};

/** Tokens a request needs at least beside its prompt for an answer worth having. */
const MIN_ANSWER_TOKENS = 256;

export class AttemptMeter {
  readonly ledger: AttemptLedger = {
    requests: 0, forwarded: 0, tokens: { prompt: 0, completion: 0, estimated: false }, stoppedBy: null, lastText: '', log: [],
    repeatedCall: null, changingCalls: [],
  };
  /** Pairs of consecutive steps seen: one step repeating (run the tests, same failure) is normal after an edit. */
  private readonly seenPairs = new Set<string>();
  private lastStep: string | null = null;
  private lastConversation: string | null = null;
  private closed = false;
  private readonly stalls: StallWatch;

  constructor(readonly bounds: AttemptBounds, private readonly now: () => number = Date.now) {
    this.stalls = new StallWatch(bounds.cwd, bounds.workspace);
  }

  close(): void {
    this.closed = true;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Decides about one chat request before anything is sent; counts it either way. */
  async admit(messages: readonly object[], promptEstimate: number, requestedMaxTokens: number | undefined): Promise<Admission> {
    this.ledger.requests += 1;
    // No two steps alike, and still going nowhere: its test runs, or a call that keeps coming back the same. The
    // bounds are asked again after that look at the files: another request may have taken the last one meanwhile.
    const why = this.stopReason(messages, promptEstimate) ?? await this.stalls.check(messages) ?? this.boundReason(promptEstimate);
    this.ledger.changingCalls = this.stalls.changingCalls;
    if (why) {
      this.ledger.stoppedBy ??= why;
      const repeated = why === 'repeated-tool-call' ? this.stalls.repeated?.call ?? null : null;
      if (repeated && this.ledger.stoppedBy === why) this.ledger.repeatedCall ??= repeated;
      return { forward: false, why, text: repeated ? `${STOP_TEXT[why]} The call: ${repeated}` : STOP_TEXT[why] };
    }
    this.ledger.forwarded += 1;
    const left = this.bounds.tokensLeft === undefined ? undefined : this.bounds.tokensLeft - this.tokensSpent() - promptEstimate;
    const maxTokens = left === undefined ? requestedMaxTokens : Math.min(requestedMaxTokens ?? left, left);
    return { forward: true, maxTokens };
  }

  /** The attempt's own bounds: closed, time, tokens, requests. */
  private boundReason(promptEstimate: number): GatewayStop | null {
    if (this.closed) return 'attempt-closed';
    if (this.bounds.deadlineAt !== undefined && this.now() >= this.bounds.deadlineAt) return 'time-budget';
    if (this.bounds.tokensLeft !== undefined && this.bounds.tokensLeft - this.tokensSpent() - promptEstimate < MIN_ANSWER_TOKENS) return 'token-budget';
    if (this.ledger.forwarded >= this.bounds.maxRequests) return 'request-cap';
    return null;
  }

  private stopReason(messages: readonly object[], promptEstimate: number): GatewayStop | null {
    const bound = this.boundReason(promptEstimate);
    if (bound) return bound;
    // The same conversation sent again, or the same two steps in a row as before (the same edit, the same test
    // failure after it): the model is where it was, and would answer as it did.
    const conversation = conversationKey(messages, this.bounds.cwd);
    const step = lastStep(messages, this.bounds.cwd);
    const pair = step !== null && this.lastStep !== null ? `${this.lastStep}:${step}` : null;
    const repeated = conversation === this.lastConversation || (pair !== null && this.seenPairs.has(pair));
    this.lastConversation = conversation;
    if (step !== null) this.lastStep = step;
    if (pair !== null) this.seenPairs.add(pair);
    return repeated ? 'repeated-step' : null;
  }

  /** After the answer went back to the agent: what it cost and what it said. */
  record(entry: Omit<RequestLogEntry, 'n'>, messages: readonly object[], answerText: string): void {
    const n = this.ledger.log.length + 1;
    this.ledger.log.push({ n, ...entry, calls: entry.calls.length ? entry.calls : lastCallsOf(messages as never) });
    if (entry.answeredBy !== 'upstream') return;
    this.ledger.tokens.prompt += entry.promptTokens;
    this.ledger.tokens.completion += entry.completionTokens;
    if (entry.estimated) this.ledger.tokens.estimated = true;
    if (answerText.trim()) this.ledger.lastText = answerText.trim();
  }

  private tokensSpent(): number {
    return this.ledger.tokens.prompt + this.ledger.tokens.completion;
  }
}
