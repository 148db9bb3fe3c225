// Why a run stopped, in words a person reads, and what they can do next. Pure: the panel and tree both use it.
import type { EscalationReason } from '../../ports/runState';

export interface ReasonExplanation {
  title: string;
  sentence: string;
  advice: string;
}

// A Record keyed by the union makes the compiler refuse a new reason until it has words here.
export const ESCALATION_EXPLANATIONS: Record<EscalationReason, ReasonExplanation> = {
  stagnation: {
    title: 'Stuck: no progress',
    sentence: 'The last attempts did not reduce the failing tests, so the loop stopped instead of spending more.',
    advice: 'Read the hypotheses below; Retry with a hint that points at the real cause, or fix it yourself from the best state.',
  },
  cycle: {
    title: 'Going in circles',
    sentence: 'An edit brought the workspace back to a state it had already been in, so further attempts would repeat themselves.',
    advice: 'Retry with a hint that rules out the approach it keeps returning to, or try another model.',
  },
  'repeated-proposal': {
    title: 'Same edit proposed twice',
    sentence: 'The model proposed exactly the same edit it had already tried, which cannot give a different result.',
    advice: 'Retry with a hint that says why that edit is wrong, or try another model.',
  },
  'budget-iterations': {
    title: 'Out of attempts',
    sentence: 'The loop used every attempt it was allowed without making all tests pass.',
    advice: 'If the chart shows steady progress, Retry with a few more attempts; otherwise add a hint or take over from the best state.',
  },
  'budget-tokens': {
    title: 'Out of tokens',
    sentence: 'The loop spent its whole token budget without making all tests pass.',
    advice: 'Retry with more tokens if the last attempts were getting closer, or raise greenloop.maxTokens for future runs.',
  },
  'budget-time': {
    title: 'Out of time',
    sentence: 'The loop reached its time limit without making all tests pass.',
    advice: 'Retry with more minutes, raise greenloop.maxMinutes, or make the test command faster (e.g. run fewer tests).',
  },
  'actor-error': {
    title: 'The model failed',
    sentence: 'The model could not be reached or kept returning errors, so no further edit could be asked for.',
    advice: 'Check the "Greenloop" output for the error, then the model selection or endpoint settings and the API key, and Retry.',
  },
  'verify-error': {
    title: 'The tests could not run',
    sentence: 'The test command failed to start or did not finish within its timeout, so no verdict was possible.',
    advice: 'Run the test task yourself to see why; fix the command (greenloop.testCommand) or raise greenloop.verifyTimeoutSeconds.',
  },
  'user-edit': {
    title: 'A file changed under the loop',
    sentence: 'A file the loop had edited was changed by someone else during the run, so the loop stopped rather than overwrite that work.',
    advice: 'Keep your changes and Accept the current state, or Roll back; then start again when you are done editing.',
  },
};

const OUTCOME_EXPLANATIONS: Record<string, ReasonExplanation> = {
  green: {
    title: 'Green',
    sentence: 'All tests pass: the loop stopped because its job is done.',
    advice: 'Review the diff below before you commit it; Roll back to baseline if you do not want it.',
  },
  running: {
    title: 'Running',
    sentence: 'The loop is still running; this page follows it.',
    advice: 'Use "Greenloop: Stop" to end it; the workspace is left as the greenloop.onGiveUp setting says.',
  },
  cancelled: {
    title: 'Stopped by you',
    sentence: 'The run was stopped before it finished.',
    advice: 'Retry to continue from where it stopped, or Roll back to the best state or the baseline.',
  },
  error: {
    title: 'Internal error',
    sentence: 'Greenloop itself failed during the run; this is a bug, not something the model or your tests did.',
    advice: 'The "Greenloop" output has the details; Roll back to the baseline if the workspace looks wrong, and report the error.',
  },
};

const UNKNOWN: ReasonExplanation = {
  title: 'Stopped',
  sentence: 'The loop stopped for a reason this version of Greenloop does not know.',
  advice: 'The "Greenloop" output has the details.',
};

export function isEscalationReason(reason: unknown): reason is EscalationReason {
  return typeof reason === 'string' && Object.prototype.hasOwnProperty.call(ESCALATION_EXPLANATIONS, reason);
}

/** History is read back from disk, so outcome and reason are plain strings and may be anything. */
export function explainStop(outcome: string, reason: string | null): ReasonExplanation {
  if (outcome === 'escalated') return isEscalationReason(reason) ? ESCALATION_EXPLANATIONS[reason] : UNKNOWN;
  return Object.prototype.hasOwnProperty.call(OUTCOME_EXPLANATIONS, outcome) ? OUTCOME_EXPLANATIONS[outcome] : UNKNOWN;
}
