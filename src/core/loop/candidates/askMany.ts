// N answers to one prompt: the endpoint's `n` where it takes it, else N requests at once. Budgets stay deadlines:
// only as many are asked for as the token budget (and the time left to try them) allows, every answer's tokens are
// charged as it arrives, and once the arrived ones spend the token budget, or the time left is only enough to try
// those, the answers still on their way are abandoned — the attempt keeps those that arrived in time.
import { ActorError, AnswerTooLarge } from '../../../ports/actor';
import type { ActorRequest, ActorResponse, TokenUsage } from '../../../ports/actor';
import type { RunState } from '../../../ports/runState';
import { estimateTokens } from '../../../base/estimateTokens';
import { parseEditBlocks } from '../../edits/parseBlocks';
import { isAbortError } from '../../../base/abort';
import { MIN_ANSWER_TOKENS } from '../bounds/budget';
import { tokensUsed } from '../bounds/termination';
import { recordOf, type Attempt, type AttemptOver } from '../attempt';
import { runSignal, type LoopContext } from '../loopContext';
import { chargeCall, recordAttempt } from '../record';
import { StopLoop } from '../stopLoop';
import { withRetries } from '../turns/retry';
import { maxAnswerBytes } from '../turns/turn';

/** One answer of the attempt: what came back, or why nothing usable did. */
export interface CandidateAnswer {
  k: number;
  response: ActorResponse | null;
  usage: TokenUsage;
  /** Why there is no response (abandoned, failed) or why it cannot be used (too large). */
  note: string;
  /** Too large to read: refused like an unusable answer, never tried. */
  refused?: boolean;
  /** An agent's answer: the snapshot of the state its copy of the workspace ended in (candidates/askAgents.ts). */
  copied?: { snapshot: string; tree: string };
}

/** How many answers fit the token budget (each pays the prompt) and the time left to try them; at least one. */
export function candidatesThatFit(ctx: LoopContext, state: RunState, wanted: number, promptTokens: number): { k: number; maxOutputTokens?: number } {
  let k = wanted;
  const { maxTokens } = state.limits;
  const left = maxTokens - tokensUsed(state);
  if (maxTokens > 0) k = Math.min(k, Math.floor(left / (promptTokens + MIN_ANSWER_TOKENS)));
  const trialMs = lastTestMs(state);
  const timeLeft = ctx.deadline?.remainingMs() ?? Infinity;
  // Each answer is tried by one test run, and the one kept by one more: an answer with no time to be tried is not asked for.
  if (Number.isFinite(timeLeft) && trialMs > 0) k = Math.min(k, Math.floor(timeLeft / trialMs) - 1);
  k = Math.max(1, k);
  return { k, ...(maxTokens > 0 ? { maxOutputTokens: Math.max(1, Math.floor((left - k * promptTokens) / k)) } : {}) };
}

/** The longest test run so far: what trying one more answer may cost. */
function lastTestMs(state: RunState): number {
  const runs = state.iterations.flatMap((it) => it.testRuns ?? []);
  if (runs.length) return Math.max(...runs.slice(-6).map((r) => r.ms));
  return state.testMs ?? 0;
}

/**
 * Asks for the attempt's answers; sets `attempt.answers` and returns the one the READ rule looks at: the first with
 * an edit, else the first that arrived. Every answer failing stops the run as one failing call does.
 */
export async function askMany(ctx: LoopContext, state: RunState, attempt: Attempt, wanted: number): Promise<ActorResponse | AttemptOver> {
  const prompt = attempt.prompt ?? { user: '', system: '' };
  const fit = candidatesThatFit(ctx, state, wanted, estimateTokens(prompt.system) + estimateTokens(prompt.user));
  if (fit.k < wanted) ctx.warn(state, `Attempt ${attempt.n} asked for ${fit.k} of ${wanted} answers: the ${state.limits.maxTokens > 0 ? 'token or time' : 'time'} budget left has room to try no more.`);
  const req = request(ctx, attempt, fit.maxOutputTokens);
  const answers: CandidateAnswer[] = [];
  let viaN: ActorResponse[] | null = null;
  if (ctx.deps.actor.proposeMany && fit.k > 1) {
    countRequest(state, attempt);
    try {
      viaN = await retried(ctx, attempt, () => ctx.deps.actor.proposeMany!(req(runSignal(ctx)), fit.k));
    } catch (err) {
      // As one failing call: what the server refuses for `n` answers it refuses for one (a 400 about `n` is null, above).
      if (err instanceof AnswerTooLarge) {
        chargeCall(state, recordOf(attempt), err.usage);
        viaN = [];
        answers.push({ k: 1, response: null, usage: err.usage, note: err.message, refused: true });
      } else if (err instanceof ActorError) throw new StopLoop({ outcome: 'escalated', reason: err.budget ?? 'actor-error', text: err.message });
      else throw err;
    }
  }
  for (const response of viaN ?? []) answers.push(arrived(ctx, state, attempt, answers.length + 1, response));
  if (answers.length < fit.k) {
    // The answers of an `n` request may already have spent the budget: the rest are not asked for.
    if (state.limits.maxTokens > 0 && tokensUsed(state) >= state.limits.maxTokens) {
      for (let k = answers.length + 1; k <= fit.k; k++) answers.push({ k, response: null, usage: { prompt: 0, completion: 0 }, note: 'not asked for: the token budget was spent by the answers that came before it' });
    } else answers.push(...(await concurrently(ctx, state, attempt, req, answers.length, fit.k - answers.length)));
  }
  attempt.answers = answers;
  const usable = answers.filter((a) => a.response && !a.refused);
  const lead = usable.find((a) => a.response!.kind === 'text' && parseEditBlocks(a.response!.text).blocks.length > 0) ?? usable[0] ?? answers.find((a) => a.response);
  if (lead) return lead.response!;
  // Nothing came that could be read: as one call that failed (the run stops), or one answer too large (invalid).
  const failed = answers.find((a) => !a.refused && a.note);
  if (failed) throw new StopLoop({ outcome: 'escalated', reason: 'actor-error', text: failed.note });
  const record = recordOf(attempt);
  record.note = answers[0]?.note ?? 'No answer came.';
  ctx.events.emit({ type: 'proposal-received', n: record.n, tokens: record.tokens, files: [] });
  return recordAttempt(ctx, state, record, 'invalid-proposal');
}

type RequestFor = (signal: AbortSignal) => ActorRequest;

function request(ctx: LoopContext, attempt: Attempt, maxOutputTokens: number | undefined): RequestFor {
  const { user, system } = attempt.prompt ?? { user: '', system: '' };
  return (signal) => ({ prompt: user, system, iteration: attempt.n, cwd: ctx.deps.cwd, signal, maxOutputTokens, maxAnswerBytes: maxAnswerBytes(ctx) });
}

function countRequest(state: RunState, attempt: Attempt): void {
  const record = recordOf(attempt);
  state.requests += 1;
  record.requests = (record.requests ?? 0) + 1;
}

function retried<T>(ctx: LoopContext, attempt: Attempt, fn: () => Promise<T>, signal = runSignal(ctx)): Promise<T> {
  return withRetries(fn, {
    ...ctx.deps.retry, clock: ctx.deps.clock, signal, deadline: ctx.deadline ?? undefined,
    onRetry: (err, n, delayMs) => ctx.events.emit({ type: 'retrying', n: attempt.n, attempt: n, delayMs, message: err.message }),
  });
}

/** An answer that came: charged to the attempt and the run at once, held to the answer cap. */
function arrived(ctx: LoopContext, state: RunState, attempt: Attempt, k: number, response: ActorResponse): CandidateAnswer {
  chargeCall(state, recordOf(attempt), response.usage);
  const cap = maxAnswerBytes(ctx);
  if (response.kind === 'text' && Buffer.byteLength(response.text) > cap) {
    return { k, response, usage: response.usage, note: new AnswerTooLarge(cap, response.usage).message, refused: true };
  }
  return { k, response, usage: response.usage, note: '' };
}

/**
 * `count` requests at once, answers numbered after `before`. Each has its own signal, so the budget can end the slow
 * ones and keep the rest; the run's own signal (Stop, the time budget) ends them all.
 */
async function concurrently(ctx: LoopContext, state: RunState, attempt: Attempt, req: RequestFor, before: number, count: number): Promise<CandidateAnswer[]> {
  const run = runSignal(ctx);
  const cut = new AbortController();
  const onRun = () => cut.abort(run.reason);
  run.addEventListener('abort', onRun, { once: true });
  const out: CandidateAnswer[] = [];
  let cutWhy = '';
  const abandon = (why: string) => {
    if (cut.signal.aborted) return;
    cutWhy = why;
    cut.abort();
  };
  const timer = timeCutoff(ctx, state, count, () => out.some((a) => a.response), abandon);
  try {
    await Promise.all(Array.from({ length: count }, async (_, i) => {
      const k = before + i + 1;
      countRequest(state, attempt);
      try {
        const response = await retried(ctx, attempt, () => ctx.deps.actor.propose(req(cut.signal)), cut.signal);
        out.push(arrived(ctx, state, attempt, k, response));
        const { maxTokens } = state.limits;
        if (maxTokens > 0 && tokensUsed(state) >= maxTokens) abandon('the token budget was spent by the answers that came before it');
      } catch (err) {
        if (run.aborted) throw err;
        if (err instanceof AnswerTooLarge) {
          chargeCall(state, recordOf(attempt), err.usage);
          out.push({ k, response: null, usage: err.usage, note: err.message, refused: true });
        } else if (cut.signal.aborted && (isAbortError(err) || !(err instanceof ActorError))) {
          out.push({ k, response: null, usage: { prompt: 0, completion: 0 }, note: `abandoned: ${cutWhy}` });
        } else {
          out.push({ k, response: null, usage: { prompt: 0, completion: 0 }, note: (err as Error).message });
        }
      }
    }));
  } finally {
    timer.abort();
    run.removeEventListener('abort', onRun);
  }
  return out.sort((a, b) => a.k - b.k);
}

/**
 * With a time budget, the answers still on their way are abandoned once the time left is only enough to try those
 * that came (one test run each, and the whole suite for the one kept) — provided one came; else the run's deadline decides.
 */
function timeCutoff(ctx: LoopContext, state: RunState, count: number, anyArrived: () => boolean, abandon: (why: string) => void): AbortController {
  const stop = new AbortController();
  const left = ctx.deadline?.remainingMs() ?? Infinity;
  const trialMs = lastTestMs(state);
  if (!Number.isFinite(left) || trialMs <= 0) return stop;
  const at = left - trialMs * (count + 1);
  const check = () => {
    if (anyArrived()) abandon('the time budget had room only to try the answers that came before it');
    else if (!stop.signal.aborted) void ctx.deps.clock.sleep(Math.max(250, trialMs), stop.signal).then(check, () => undefined);
  };
  void ctx.deps.clock.sleep(Math.max(0, at), stop.signal).then(check, () => undefined);
  return stop;
}
