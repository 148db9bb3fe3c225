// Several answers to one prompt (`--candidates N`): each is tried from the attempt's starting state, one after another
// in the workspace, and rolled back; the fixed order of candidates/pick.ts chooses one, and the rest of the pipeline
// (apply, the whole suite, keep or undo) handles that one exactly as it handles a single answer. Nothing to do for one.
import type { CandidateRecord, RunState } from '../../../ports/runState';
import { recordOf, type Attempt, type StepResult } from '../attempt';
import type { LoopContext } from '../loopContext';
import { pickCandidate } from '../candidates/pick';
import { tryCandidate, type Trial } from '../candidates/trial';

export async function candidates(ctx: LoopContext, state: RunState, attempt: Attempt): Promise<StepResult> {
  const answers = attempt.answers;
  if (!answers || answers.length < 2) return undefined;
  const record = recordOf(attempt);
  const trials: Trial[] = [];
  for (const answer of answers) {
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
  return undefined;
}
