// One candidate tried: applied from the attempt's starting state, judged by the failing tests alone (the whole suite
// when they cannot be run alone), and rolled back — every write announced in the journal, so a kill between two
// candidates leaves a state the next start puts back whole. Refused without a test run: an answer that cannot apply,
// or touches a protected file (applyModelAnswer's rules; an agent's: acceptAgentEdits'), a state the run rolled back
// before, an earlier candidate's edit. An agent's candidate is written from its copy's state (candidates/copiedAnswer.ts).
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { TokenUsage } from '../../../ports/actor';
import type { CandidateVerdict, RunState, WitnessSummary } from '../../../ports/runState';
import type { TargetedRun, Witness } from '../../../ports/verifier';
import { isAbortError } from '../../../base/abort';
import type { ApplyContext } from '../../edits/applyContext';
import { applyModelAnswer, writtenRealPaths } from '../../edits/applyModelAnswer';
import { checkPath, isProtected } from '../../edits/pathPolicy';
import { parseEditBlocks } from '../../edits/parseBlocks';
import { proposalHash } from '../../edits/proposalHash';
import { targetedCoverage } from '../../judge/targetedCoverage';
import { judge, judgedFailing, judgeOptions } from '../../judge/witnessCompare';
import { summarize } from '../../run/runStateFactory';
import { escalate } from '../bounds/termination';
import { recordOf, type Attempt } from '../attempt';
import { runSignal, type LoopContext } from '../loopContext';
import { newRecord } from '../record';
import { leftAloneSentence, rollBack } from '../states/rollback';
import { StopLoop } from '../stopLoop';
import { noteTestRun } from '../testRuns';
import { changesHowTestsRun, failingFirst, targetsOf } from '../steps/targeted';
import { agreementKey, diffLines, type FileAfter } from './agreement';
import type { CandidateAnswer } from './askMany';
import { applyCopied } from './copiedAnswer';

export interface Trial {
  k: number;
  answer: CandidateAnswer;
  tokens: TokenUsage;
  verdict: CandidateVerdict;
  failing: number | null;
  newlyFailing: number;
  findings: number;
  agreeKey: string | null;
  diffLines: number;
  files: string[];
  note: string;
  proposalHash: string | null;
  /** The snapshot of its edit applied: what the Loop history shows as its diff. */
  snapshot?: string;
  /** The state it made, without the test command's own files: how a later candidate is known to repeat it. */
  identity?: string;
  /** Its targeted run, reused if it is chosen. */
  targeted?: { tree: string; run: Extract<TargetedRun, { ok: true }> };
}

type Measured = Pick<Trial, 'verdict' | 'failing' | 'newlyFailing' | 'findings' | 'note'> & { targeted?: Trial['targeted'] };

export function untried(answer: CandidateAnswer, verdict: CandidateVerdict, note: string, more: Partial<Trial> = {}): Trial {
  return {
    k: answer.k, answer, tokens: answer.usage, verdict, failing: null, newlyFailing: 0, findings: 0, agreeKey: null, diffLines: 0,
    files: [], note, proposalHash: null, ...more,
  };
}

/**
 * `inCopy`: ctx is a copy of the workspace (candidates/parallelTrials.ts), thrown away afterwards: nothing of the
 * person's is written, so nothing is rolled back or named in flight.
 */
export async function tryCandidate(ctx: LoopContext, state: RunState, attempt: Attempt, answer: CandidateAnswer, earlier: readonly Trial[], inCopy = false): Promise<Trial> {
  if (!answer.response) return untried(answer, answer.refused ? 'refused' : 'missing', answer.note);
  if (answer.refused) return untried(answer, 'refused', answer.note);
  const text = answer.response.kind === 'text' ? answer.response.text : '';
  const parsed = parseEditBlocks(text);
  const hash = parsed.blocks.length && !parsed.errors.length ? proposalHash(parsed.blocks) : null;
  const same = hash ? earlier.find((t) => t.proposalHash === hash && t.agreeKey) : undefined;
  if (same) return untried(answer, 'repeat', `the same edit as candidate ${same.k}`, { agreeKey: same.agreeKey, diffLines: same.diffLines, files: same.files, proposalHash: hash, snapshot: same.snapshot });

  const scratch = newRecord(attempt.n, ctx.deps.clock.now(), attempt.from);
  const copied = answer.copied?.snapshot;
  const touched = copied ? await ctx.deps.snapshots.changedBetween(attempt.from.snapshot, copied) : parsed.blocks.map((b) => b.path);
  const before = await readFiles(ctx, touched);
  const applyCtx: ApplyContext = {
    cwd: ctx.deps.cwd, policy: ctx.policy, snapshots: ctx.deps.snapshots, journal: ctx.deps.journal, memory: ctx.lastApply,
    intent: { attempt: attempt.n, returnTo: attempt.from.snapshot, artifacts: state.artifacts }, signal: runSignal(ctx),
  };
  ctx.lastApply.forget();
  // An agent's candidate is the state its copy ended in (candidates/askAgents.ts); a model's, its blocks.
  const applied = copied ? await applyCopied(applyCtx, state, scratch, attempt.from.snapshot, copied) : await applyModelAnswer(applyCtx, state, scratch, text);
  if (!applied) {
    if (!inCopy) state.inFlight = undefined;
    const repeat = scratch.proposalHash !== null && state.seenProposals.includes(scratch.proposalHash);
    return untried(answer, repeat ? 'repeat' : 'refused', scratch.note, { proposalHash: scratch.proposalHash, files: scratch.files });
  }
  if (!inCopy) state.inFlight = scratch.files;
  const files: FileAfter[] = [];
  const after = await readFiles(ctx, scratch.files);
  for (const f of scratch.files) files.push({ path: f, before: before.get(f) ?? null, after: after.get(f) ?? null });
  const shape = { agreeKey: agreementKey(files), diffLines: diffLines(files), files: scratch.files, proposalHash: scratch.proposalHash };
  const snap = await ctx.deps.snapshots.snapshot(`candidate-${attempt.n}-${answer.k}`, writtenRealPaths(ctx.policy, scratch.files));
  const identity = await ctx.known.identityOf(state, snap.id);

  const twin = earlier.find((t) => t.identity === identity);
  const known = ctx.known.find(state, identity);
  let measured: Measured;
  if (twin) measured = { verdict: 'repeat', failing: null, newlyFailing: 0, findings: 0, note: `leaves the same files as candidate ${twin.k}` };
  else if (known?.kind === 'rejected') measured = { verdict: 'repeat', failing: null, newlyFailing: 0, findings: 0, note: `returns to the state attempt ${known.earlier.iteration} left, which was rolled back` };
  else if (known?.kind === 'kept') {
    // Judged from memory, as the pipeline would; if it is chosen, the pipeline calls it a cycle.
    const w = state.iterations.find((it) => it.afterSnapshot === known.earlier.snapshot)?.witness ?? (known.earlier.iteration === 0 ? state.baseline.witness : state.current.witness);
    measured = { ...fromWhole(state, w), note: `returns to a state the run was in (known, not tested again)` };
  } else measured = await measure(ctx, state, attempt, snap);

  if (!inCopy) await undo(ctx, state, attempt, snap.id, scratch.files);
  return { k: answer.k, answer, tokens: answer.usage, ...shape, ...measured, identity, snapshot: snap.id };
}

/** The failing tests alone when they can be run so; else the whole suite. Every run lands in the attempt's record. */
async function measure(ctx: LoopContext, state: RunState, attempt: Attempt, snap: { id: string; tree: string }): Promise<Measured> {
  const { verifier } = ctx.deps;
  const record = recordOf(attempt);
  const signal = runSignal(ctx);
  const targets = targetsOf(state);
  if (verifier.verifyTargeted && targets && failingFirst(state) && !(await changesHowTestsRun(ctx, attempt.from.snapshot, snap.id))) {
    ctx.events.emit({ type: 'verifying', n: attempt.n, scope: 'targeted', tests: targets.length });
    try {
      const run = await verifier.verifyTargeted(targets, signal);
      if (run.ok) {
        noteTestRun(state, record, run.witness, run.command);
        const ids = targets.map((t) => t.id);
        const read = fromTargeted(state, ids, run.witness);
        if (read) return { ...read, targeted: { tree: snap.tree, run } };
      }
    } catch (err) {
      if (isAbortError(err) || signal.aborted) throw err;
    }
  }
  ctx.events.emit({ type: 'verifying', n: attempt.n, scope: 'full' });
  const w = await verifier.verify(signal);
  noteTestRun(state, record, w);
  if (w.timedOut) return { verdict: 'no-progress', failing: null, newlyFailing: 0, findings: 0, note: `the tests did not finish within ${ctx.deps.config.verifyTimeoutS} s` };
  return fromWhole(state, summarize(w));
}

/** What the failing tests said when run alone; null when the run did not show them all (the whole suite decides then). */
function fromTargeted(state: RunState, ids: readonly string[], w: Witness): Measured | null {
  const coverage = targetedCoverage(ids, w);
  if (!coverage.complete) return null;
  const before = new Set(state.best.witness.failing);
  const flaky = new Set(state.flaky);
  const newly = w.failing.filter((id) => !before.has(id) && !flaky.has(id));
  const passing = coverage.passing.length;
  const verdict: CandidateVerdict = newly.length ? 'no-progress' : passing === ids.length ? 'green' : passing > 0 ? 'progress' : 'no-progress';
  const note = passing === ids.length ? 'the failing tests pass' : passing > 0 ? `${passing} of the ${ids.length} failing tests pass` : 'the failing tests still fail';
  return { verdict, failing: coverage.failing.length + newly.length, newlyFailing: newly.length, findings: w.diagnostics.length, note: newly.length ? `${note}, and ${newly.length} other test${newly.length === 1 ? '' : 's'} now fail${newly.length === 1 ? 's' : ''}` : note };
}

function fromWhole(state: RunState, w: WitnessSummary): Measured {
  const j = judge(state.best.witness, w, judgeOptions(state));
  const verdict: CandidateVerdict = j.verdict === 'green' ? 'green' : j.verdict === 'progress' ? 'progress' : 'no-progress';
  return { verdict, failing: judgedFailing(w).length, newlyFailing: j.newlyFailing.length + j.missing.length, findings: w.diagnostics.length, note: j.note };
}

/**
 * Back to the attempt's starting state: the candidate's files, and protected test files its tests rewrote. A file
 * someone else changed meanwhile is left alone and the run stops, as every rollback does.
 */
async function undo(ctx: LoopContext, state: RunState, attempt: Attempt, after: string, files: string[]): Promise<void> {
  const written = await ctx.deps.snapshots.changedSince(after);
  const tampered = written.filter((p) => isProtected(ctx.policy, p) && !state.artifacts.includes(p));
  state.inFlight = [...files, ...tampered];
  const leftAlone = await rollBack(ctx.deps, state, { snapshot: attempt.from.snapshot, iteration: Number.MAX_SAFE_INTEGER });
  state.inFlight = undefined;
  ctx.lastApply.forget();
  if (leftAlone.length) throw new StopLoop(escalate('user-edit', leftAloneSentence(leftAlone)));
}

async function readFiles(ctx: LoopContext, rels: readonly string[]): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  for (const rel of rels) {
    const c = checkPath(ctx.policy, rel);
    if (!c.ok) continue;
    const text = await fsp.readFile(path.join(ctx.deps.cwd, c.realRel), 'utf8').catch(() => null);
    // Keyed both ways: the answer's spelling of a path and the one the edit reports may differ (`./src/a.ts`).
    out.set(rel, text);
    out.set(c.realRel, text);
  }
  return out;
}
