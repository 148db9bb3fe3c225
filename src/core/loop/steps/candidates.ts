// Several answers to one prompt (`--candidates N`): each is tried from the attempt's starting state, one after another
// in the workspace, and rolled back; the fixed order of candidates/pick.ts chooses one, and the rest of the pipeline
// (apply, the whole suite, keep or undo) handles that one exactly as it handles a single answer. Nothing to do for one.
// Agents' candidates come from their copies of the workspace: the chosen one is written into it before the apply step.
// With --candidates-parallel they are tried at the same time, each in a copy of its own (candidates/parallelTrials.ts).
import type { CandidateRecord, RunState } from '../../../ports/runState';
import { recordOf, type Attempt, type StepResult } from '../attempt';
import type { LoopContext } from '../loopContext';
import { pickCandidate } from '../candidates/pick';
import { tryCandidate, type Trial } from '../candidates/trial';
import { tryInCopies } from '../candidates/parallelTrials';
import { writeCopied } from '../candidates/copiedAnswer';
import type { ApplyContext } from '../../edits/applyContext';
import { summarizeHypothesis } from '../../edits/hypothesis';

export async function candidates(ctx: LoopContext, state: RunState, attempt: Attempt): Promise<StepResult> {
  const answers = attempt.answers;
  if (!answers || answers.length < 2) return undefined;
  const record = recordOf(attempt);
  const trials = (ctx.deps.config.candidatesParallel ? await tryInCopies(ctx, state, attempt, answers) : null) ?? [];
  for (const trial of trials) ctx.events.emit({ type: 'candidate-tried', n: attempt.n, k: trial.k, of: answers.length, verdict: trial.verdict, files: trial.files, note: trial.note });
  // One after another in the workspace (the default, and when copies cannot be had).
  for (const answer of trials.length ? [] : answers) {
    const trial = await tryCandidate(ctx, state, attempt, answer, trials);
    trials.push(trial);
    ctx.events.emit({ type: 'candidate-tried', n: attempt.n, k: trial.k, of: answers.length, verdict: trial.verdict, files: trial.files, note: trial.note });
  }
  const pick = pickCandidate(trials);
  // None could be tried: the earliest that arrived goes on alone, so its refusal or repeat is recorded as one answer's is.
  const chosen = trials.find((t) => t.k === pick.chosen) ?? trials.find((t) => t.answer.response) ?? trials[0]!;
  record.candidates = trials.map((t): CandidateRecord => ({
    k: t.k, tokens: t.tokens, files: t.files, verdict: t.verdict, failing: t.failing, newlyFailing: t.newlyFailing, findings: t.findings,
    diffLines: t.diffLines, votes: pick.votes.get(t.k) ?? 0, chosen: t === chosen, ...(t === chosen ? {} : { lostBecause: pick.lostBecause.get(t.k) ?? '' }),
    note: t.note, proposalHash: t.proposalHash, ...(t.snapshot ? { snapshot: t.snapshot } : {}),
  }));
  ctx.events.emit({ type: 'candidates-judged', n: attempt.n, chosen: chosen.k, candidates: record.candidates });
  attempt.response = chosen.answer.response;
  if (chosen.targeted) attempt.trialRun = chosen.targeted;
  if (chosen.answer.copied) await putChosenAgent(ctx, state, attempt, chosen.answer.copied.snapshot);
  return undefined;
}

/**
 * An agent's candidate is only in the store until now: the chosen one is written into the workspace, where the apply
 * step accepts it as it accepts one agent's edits, and its account is the attempt's.
 */
async function putChosenAgent(ctx: LoopContext, state: RunState, attempt: Attempt, copied: string): Promise<void> {
  const record = recordOf(attempt);
  const response = attempt.response;
  if (response?.kind === 'workspace-edited' && response.agent) {
    record.agent = response.agent;
    if (response.agent.lastMessage) record.hypothesis = summarizeHypothesis(response.agent.lastMessage);
  }
  const applyCtx: ApplyContext = {
    cwd: ctx.deps.cwd, policy: ctx.policy, snapshots: ctx.deps.snapshots, journal: ctx.deps.journal,
    intent: { attempt: attempt.n, returnTo: attempt.from.snapshot, artifacts: state.artifacts },
  };
  await writeCopied(applyCtx, state, attempt.from.snapshot, copied);
}
