// An attempt in the run's history: its record opened before the actor is asked, what each call cost, and the
// verdict that closes it — after which the run's guards say whether the loop goes on.
import type { TokenUsage } from '../../ports/actor';
import type { IterationRecord, RunState, Verdict, WitnessSummary } from '../../ports/runState';
import { checkAfterIteration, countsAsAttempt } from './bounds/termination';
import { over, type AttemptOver } from './attempt';
import type { LoopContext } from './loopContext';
import { moveTo } from './states/moveTo';

export function newRecord(n: number, startedAt: number, from: Readonly<{ snapshot: string; witness: WitnessSummary }>): IterationRecord {
  return {
    n, startedAt, verdict: 'invalid-proposal', failing: from.witness.failing, loadErrorFiles: from.witness.loadErrorFiles ?? [], diagnostics: from.witness.diagnostics.length,
    rolledBack: false, treeHash: null, proposalHash: null, files: [], tokens: { prompt: 0, completion: 0 },
    durationMs: 0, note: '', hypothesis: '', beforeSnapshot: from.snapshot, afterSnapshot: null, witness: null, requests: 0,
  };
}

/**
 * Closes the attempt with its verdict; the attempt is over, and the guards after it say whether the run stops.
 * `judgedAlone: false` — an edit rolled back with earlier unjudged edits it could not be told apart from — does not
 * count toward patience: no run judged it, and the next attempt makes it again on the best state. It still counts
 * toward every budget, and it cannot happen twice in a row (the rollback leaves no unjudged edit behind).
 */
export function recordAttempt(ctx: LoopContext, state: RunState, record: IterationRecord, verdict: Verdict, opts: { judgedAlone?: boolean } = {}): AttemptOver {
  state.inFlight = undefined;
  record.verdict = verdict;
  record.durationMs = ctx.deps.clock.now() - record.startedAt;
  if (verdict === 'invalid-proposal') state.feedback = record.note;
  if (verdict === 'progress' || verdict === 'green') state.consecutiveNoProgress = 0;
  else if (opts.judgedAlone !== false && countsAsAttempt(record)) state.consecutiveNoProgress += 1;
  if (record.proposalHash) state.seenProposals.push(record.proposalHash);
  state.iterations.push(record);
  ctx.events.emit({ type: 'verified', n: record.n, verdict, failing: record.failing.length, notLoaded: record.loadErrorFiles?.length ?? 0, diagnostics: record.diagnostics, rolledBack: record.rolledBack, note: record.note, iteration: record });
  return over(checkAfterIteration(state, ctx.deps.clock.now()));
}

/** The tests could not judge the attempt: it is in the history, the workspace back at the best state. */
export function recordVerifyFailure(ctx: LoopContext, state: RunState, record: IterationRecord): void {
  state.inFlight = undefined;
  record.verdict = 'no-progress';
  record.durationMs = ctx.deps.clock.now() - record.startedAt;
  state.iterations.push(record);
  moveTo(state, state.best);
}

/** One call to the actor, charged to the attempt (a READ makes several) and the run. */
export function chargeCall(state: RunState, record: IterationRecord, usage: TokenUsage): void {
  record.tokens = { prompt: record.tokens.prompt + usage.prompt, completion: record.tokens.completion + usage.completion };
  state.llmCalls += 1;
  addTokens(state.tokens, usage);
}

function addTokens(total: TokenUsage, add: TokenUsage): void {
  total.prompt += add.prompt;
  total.completion += add.completion;
  if (add.estimated) total.estimated = true;
}
