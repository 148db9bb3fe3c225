// `--candidates-parallel`: the attempt's candidates (a model's answers or agents' copies) are tried at the same time,
// each in a fresh copy of the attempt's starting state with the failing tests run there, by the same trial as in the
// workspace (candidates/trial.ts) — nothing of the person's is written until the pick, and then only the chosen one,
// by the pipeline. At most one copy per candidate: N answers, N copies at once. The copies go however the trials end.
import * as path from 'node:path';
import type { RunState } from '../../../ports/runState';
import type { WorkspaceCopy } from '../../../ports/snapshots';
import type { Attempt } from '../attempt';
import type { LoopContext } from '../loopContext';
import { LastApplyMemory } from '../states/lastApply';
import { parseEditBlocks } from '../../edits/parseBlocks';
import { proposalHash } from '../../edits/proposalHash';
import type { CandidateAnswer } from './askMany';
import { tryCandidate, type Trial } from './trial';
import { isAbortError } from '../../../base/abort';

/** The trials, in the answers' order; null when this run cannot judge in copies (the caller judges in the workspace). */
export async function tryInCopies(ctx: LoopContext, state: RunState, attempt: Attempt, answers: readonly CandidateAnswer[]): Promise<Trial[] | null> {
  const { copies, verifier } = ctx.deps;
  if (!copies || !verifier.inFolder) {
    ctx.warn(state, 'The candidates were judged one after another in the workspace: --candidates-parallel needs copies of the workspace and a test command that can run in one, which this run does not have.');
    return null;
  }
  const made: WorkspaceCopy[] = [];
  const hashes = answers.map(editHash);
  const running: Promise<Trial>[] = [];
  const one = async (answer: CandidateAnswer, i: number): Promise<Trial> => {
    // Nothing to apply (missing, too large): refused without a copy, as in the workspace.
    if (!answer.response || answer.refused) return tryCandidate(ctx, state, attempt, answer, []);
    // The same blocks as an earlier answer: a repeat once that one applied, never tested twice.
    const first = hashes[i] ? hashes.indexOf(hashes[i]) : i;
    if (first < i) {
      const earlier = await running[first]!;
      if (earlier.agreeKey) return tryCandidate(ctx, state, attempt, answer, [earlier]);
    }
    const copy = await copies.make(attempt.from.snapshot);
    made.push(copy);
    return tryCandidate(inCopy(ctx, copy), state, attempt, answer, [], true);
  };
  let settled: PromiseSettledResult<Trial>[];
  try {
    answers.forEach((answer, i) => running.push(one(answer, i)));
    settled = await Promise.allSettled(running);
  } finally {
    state.inFlight = undefined;
    await Promise.all(made.map((c) => c.remove().catch((err: Error) => ctx.warn(state, `A copy of the workspace at ${c.dir} could not be removed (${err.message}); delete it by hand.`))));
  }
  const thrown = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (thrown) {
    // Stop and the deadline end the attempt; anything else is the copy's (a test command that cannot run outside the
    // workspace, a copy that could not be made): the answers are judged in the workspace instead, and the run goes on.
    if (isAbortError(thrown.reason) || ctx.deadline?.signal.aborted) throw thrown.reason;
    ctx.warn(state, `The candidates were judged one after another in the workspace: judging them in copies failed (${messageOf(thrown.reason)}).`);
    return null;
  }
  return sameAsEarlier(settled.map((s) => (s as PromiseFulfilledResult<Trial>).value));
}

/** The hash of a model answer's blocks (null for an agent's, or none): how a repeated answer is known before it is applied. */
function editHash(answer: CandidateAnswer): string | null {
  const response = answer.response;
  if (response?.kind !== 'text') return null;
  const parsed = parseEditBlocks(response.text);
  return parsed.blocks.length && !parsed.errors.length ? proposalHash(parsed.blocks) : null;
}

/**
 * Tried side by side, a candidate could not see that an earlier one left the same files: it is made the repeat it is
 * in the workspace's order, so the pick (and its votes) come out as one after another would.
 */
function sameAsEarlier(trials: Trial[]): Trial[] {
  return trials.map((t, i) => {
    if (!t.identity || t.verdict === 'repeat') return t;
    const twin = trials.slice(0, i).find((e) => e.identity === t.identity);
    if (!twin) return t;
    return { ...t, verdict: 'repeat', failing: null, newlyFailing: 0, findings: 0, note: `leaves the same files as candidate ${twin.k}`, targeted: undefined };
  });
}

/** The loop's context over a copy: its folder, its store, the test command run there, no journal (nothing of the person's is written). */
function inCopy(ctx: LoopContext, copy: WorkspaceCopy): LoopContext {
  return {
    deps: { ...ctx.deps, cwd: copy.dir, snapshots: copy.snapshots, verifier: ctx.deps.verifier.inFolder!(copy.dir), journal: undefined },
    events: ctx.events,
    deadline: ctx.deadline,
    lastApply: new LastApplyMemory(),
    policy: { ...ctx.policy, root: path.resolve(copy.dir) },
    known: ctx.known,
    warn: (state, message) => ctx.warn(state, message),
  };
}

function messageOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\.$/, '');
}
