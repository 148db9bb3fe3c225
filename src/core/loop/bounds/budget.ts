// Budgets as limits the loop checks before it spends: the token room left for the next model call, and what a
// person's extra grant on resume adds (counted from where the run stopped, never from the original limit).
import type { RunState } from '../../../ports/runState';
import { attemptsUsed, elapsedMs, tokensUsed } from './termination';

/** An answer needs room for at least one edit block; a call with less room left is not made. */
export const MIN_ANSWER_TOKENS = 256;

export type TokenRoom = { ok: true; maxOutputTokens?: number } | { ok: false; text: string };

/** Whether the next call fits the token budget, and how many completion tokens it may use. */
export function tokenRoom(state: RunState, promptTokens: number): TokenRoom {
  const { maxTokens } = state.limits;
  if (maxTokens <= 0) return { ok: true };
  const left = maxTokens - tokensUsed(state);
  const room = left - promptTokens;
  if (room < MIN_ANSWER_TOKENS) {
    const fmt = (n: number) => Math.max(0, n).toLocaleString('en-US');
    return {
      ok: false,
      text: `The next prompt needs about ${fmt(promptTokens)} tokens and only ${fmt(left)} of the ${fmt(maxTokens)}-token budget are left, not enough for an answer; the model was not asked.`,
    };
  }
  return { ok: true, maxOutputTokens: room };
}

export interface Grant {
  hint: string;
  /** More attempts from where the run stopped (0: keep the current limit). */
  iterations: number;
  /** More tokens from what the run has used (0 or absent: keep the current limit). */
  tokens?: number;
  /** More minutes from the time the run has taken (0 or absent: keep the current limit). */
  minutes?: number;
}

/** Sets each granted limit to what was used plus the grant; an unlimited budget (0) stays unlimited. */
export function applyGrant(state: RunState, grant: Grant, now: number): void {
  state.grants.push({ at: now, iterations: grant.iterations, tokens: grant.tokens ?? 0, minutes: grant.minutes ?? 0, hint: grant.hint });
  if (grant.iterations > 0) state.limits.maxIterations = attemptsUsed(state) + grant.iterations;
  if ((grant.tokens ?? 0) > 0 && state.limits.maxTokens > 0) state.limits.maxTokens = tokensUsed(state) + (grant.tokens ?? 0);
  if ((grant.minutes ?? 0) > 0 && state.limits.maxMinutes > 0) {
    state.limits.maxMinutes = Math.round((elapsedMs(state, now) / 60_000 + (grant.minutes ?? 0)) * 1000) / 1000;
  }
}

/** A budget the run has used up and the grant does not extend: resuming would stop at once. Null when none. */
export function spentWithoutGrant(state: RunState, grant: Grant, now: number): string | null {
  const { maxIterations, maxTokens, maxMinutes } = state.limits;
  // Time stands still while a run is parked: what counts is the time it had taken when it stopped.
  const at = state.finishedAt ?? now;
  if (grant.iterations <= 0 && attemptsUsed(state) >= maxIterations) return `all ${maxIterations} attempts are used; grant more attempts`;
  if (!(grant.tokens ?? 0) && maxTokens > 0 && tokensUsed(state) >= maxTokens) return `the ${maxTokens.toLocaleString('en-US')}-token budget is spent; grant more tokens`;
  if (!(grant.minutes ?? 0) && maxMinutes > 0 && elapsedMs(state, at) >= maxMinutes * 60_000) return `the ${maxMinutes}-minute budget is spent; grant more minutes`;
  return null;
}
