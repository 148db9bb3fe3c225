// The loop's side of an agent CLI attempt: what bounds it is handed, how what it spent is charged to the run
// (the gateway's exact figures replace the one call the engine counted).
import type { AgentAttempt } from '../../../ports/actor';
import type { IterationRecord, RunState } from '../../../ports/runState';
import type { RunDeadline } from '../bounds/deadline';
import { tokensUsed } from '../bounds/termination';

/** The run's budgets as an agent attempt sees them: what is left, or undefined when unlimited. */
export function agentBounds(state: RunState, deadline: RunDeadline | null): { tokensLeft?: number; timeLeftMs?: number } {
  const { maxTokens } = state.limits;
  const remaining = deadline?.remainingMs() ?? Infinity;
  return {
    tokensLeft: maxTokens > 0 ? Math.max(0, maxTokens - tokensUsed(state)) : undefined,
    timeLeftMs: Number.isFinite(remaining) ? remaining : undefined,
  };
}

/** The attempt counted one request when it started; the gateway saw how many the agent really made. */
export function chargeAgentRequests(state: RunState, record: IterationRecord, agent: AgentAttempt | undefined): void {
  if (!agent) return;
  record.agent = agent;
  const counted = record.requests ?? 0;
  record.requests = agent.requests;
  state.requests += agent.requests - counted;
}
