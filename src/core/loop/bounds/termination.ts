// When the loop stops: pure functions of the run state, checked in the contract's order after every iteration.
import type { EscalationReason, IterationRecord, RunState } from '../../../ports/runState';
import { repeatedAgentCalls } from './repeatedCalls';

export interface Stop {
  outcome: 'green' | 'escalated';
  reason: EscalationReason | null;
  text: string;
}

export function elapsedMs(state: RunState, now: number): number {
  return state.elapsedBeforeMs + (now - state.startedAt);
}

export function tokensUsed(state: RunState): number {
  return state.tokens.prompt + state.tokens.completion;
}

/** An attempt no model made (the project's own fixers) spends time, never an attempt of the budget nor patience. */
export function countsAsAttempt(record: Pick<IterationRecord, 'actor'>): boolean {
  return record.actor !== 'autofix';
}

/** The attempts of the iteration budget used so far. */
export function attemptsUsed(state: RunState): number {
  return state.iterations.filter(countsAsAttempt).length;
}

/** Checked after an iteration has been recorded. */
export function checkAfterIteration(state: RunState, now: number): Stop | null {
  const last = state.iterations[state.iterations.length - 1];
  if (last?.verdict === 'green' && !countsAsAttempt(last)) {
    return { outcome: 'green', reason: null, text: `Green after the project's own fixers, with no model call.` };
  }
  if (last?.verdict === 'green') {
    const scope = state.config.focus?.length ? ' on the focused tests' : '';
    return { outcome: 'green', reason: null, text: `Green${scope} after ${last.n} attempt${last.n === 1 ? '' : 's'}.` };
  }
  // A cycle (a kept state reached again) is called by the engine before the tests re-run; a repeat is decided here.
  if (last?.proposalHash && state.seenProposals.slice(0, -1).includes(last.proposalHash)) {
    return escalate('repeated-proposal', `Attempt ${last.n} proposed exactly the same edit as an earlier attempt.`);
  }
  const sameCalls = repeatedAgentCalls(state, (text) => escalate('repeated-proposal', text));
  if (sameCalls) return sameCalls;
  if (state.consecutiveNoProgress >= state.config.patience) {
    return escalate('stagnation', `No progress in the last ${state.consecutiveNoProgress} attempts (patience ${state.config.patience}).`);
  }
  return checkBudgets(state, now);
}

/** Budgets are also checked before an iteration starts (a resumed run may have none left). */
export function checkBudgets(state: RunState, now: number): Stop | null {
  const { maxIterations, maxTokens, maxMinutes } = state.limits;
  if (attemptsUsed(state) >= maxIterations) {
    return escalate('budget-iterations', `Used all ${maxIterations} attempts without going green.`);
  }
  if (maxTokens > 0 && tokensUsed(state) >= maxTokens) {
    return escalate('budget-tokens', `Used ${tokensUsed(state).toLocaleString('en-US')} of ${maxTokens.toLocaleString('en-US')} tokens without going green.`);
  }
  if (maxMinutes > 0 && elapsedMs(state, now) >= maxMinutes * 60_000) {
    return escalate('budget-time', `Ran out of time: ${formatMinutes(elapsedMs(state, now))} of ${maxMinutes} min.`);
  }
  return null;
}

/** Warnings for the prompt, before a budget or patience runs out (a warning before the block). */
export function upcomingLimits(state: RunState, now: number): string[] {
  const out: string[] = [];
  const attemptsLeft = state.limits.maxIterations - attemptsUsed(state);
  const patienceLeft = state.config.patience - state.consecutiveNoProgress;
  if (state.consecutiveNoProgress > 0 && patienceLeft === 1) {
    out.push(`No progress in the last ${state.consecutiveNoProgress === 1 ? 'attempt' : `${state.consecutiveNoProgress} attempts`}; one attempt left before this loop stops — try a different approach.`);
  }
  if (attemptsLeft === 1) out.push('This is the last attempt of the iteration budget.');
  const { maxTokens, maxMinutes } = state.limits;
  if (maxTokens > 0 && tokensUsed(state) >= 0.75 * maxTokens) {
    out.push(`Token budget nearly spent: ${tokensUsed(state)} of ${maxTokens} used — keep the answer short.`);
  }
  if (maxMinutes > 0 && elapsedMs(state, now) >= 0.75 * maxMinutes * 60_000) {
    out.push(`Time budget nearly spent: ${formatMinutes(elapsedMs(state, now))} of ${maxMinutes} min.`);
  }
  return out;
}

export function escalate(reason: EscalationReason, text: string): Stop {
  return { outcome: 'escalated', reason, text };
}

export function formatMinutes(ms: number): string {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
