// One attempt's facts, filled step by step, and the shape of a step: what the engine once kept in a dozen locals of
// one long method (and the attempt in progress in a mutable field) is one value handed from step to step.
import type { ActorResponse } from '../../ports/actor';
import type { TargetedRun } from '../../ports/verifier';
import type { CandidateAnswer } from './candidates/askMany';
import type { OutsideMark } from '../../ports/outside';
import type { SnapshotRef } from '../../ports/snapshots';
import type { IterationRecord, RunState, Verdict, WitnessSummary } from '../../ports/runState';
import type { ApplyContext } from '../edits/applyContext';
import type { Judgement } from '../judge/witnessCompare';
import type { Stop } from './bounds/termination';
import type { LoopContext } from './loopContext';
import type { Settled } from './settle';
import type { SameLines } from './steps/sameLines';
import { attemptsUsed } from './bounds/termination';

export interface Attempt {
  readonly n: number;
  readonly startedAt: number;
  /** The model's or the agent's, chosen once per engine; or the project's own fixers, before the first of them. */
  readonly turn: Turn;
  /** state.current when it began: what an agent's edits are compared with and the record starts from. */
  readonly from: Readonly<{ snapshot: string; tree: string; witness: WitnessSummary }>;
  /** Created just before the actor is asked; until then a stop records no attempt. */
  record: IterationRecord | null;
  prompt: { user: string; system: string; maxOutputTokens?: number } | null;
  /** An agent's mark of what it must leave alone outside the snapshots; null for a model. */
  outside: OutsideMark | null;
  response: ActorResponse | null;
  /** Every answer of an attempt that asked for several (`--candidates`); `response` becomes the one chosen. */
  answers?: CandidateAnswer[];
  /** The chosen candidate's targeted run while it was tried, reused when its edit is applied again (same tree). */
  trialRun?: { tree: string; run: Extract<TargetedRun, { ok: true }> };
  /** The actor's own failure, told beside the verdict, never judged. */
  actorNote: string;
  /** The snapshot after the edit. */
  after: SnapshotRef | null;
  judged: { j: Judgement; witness: WitnessSummary } | null;
  /** Failing tests of the best state that passed in this attempt's targeted run (steps/targeted.ts). */
  passedAlone?: string[];
  /** Set when the re-judge could not take this attempt apart from earlier unjudged edits: both changed these lines. */
  sameLines?: SameLines;
  /** Null when the verdict is a regression (the workspace is not settled then, it is rolled back). */
  settled: Settled | null;
  verdict: Verdict | null;
}

/** The attempt is over, recorded or not; `stop` is the loop's decision (null: the next attempt). */
export interface AttemptOver {
  readonly over: true;
  readonly stop: Stop | null;
}

/** What a step says: nothing (go on to the next step), or that the attempt is over. */
export type StepResult = AttemptOver | undefined;
export type Step = (ctx: LoopContext, state: RunState, attempt: Attempt) => Promise<StepResult>;

export function over(stop: Stop | null): AttemptOver {
  return { over: true, stop };
}

/** Something threw in the middle of an attempt: the engine needs the attempt to report it (state folder lost, unrecordable). */
export class AttemptInterrupted extends Error {
  constructor(readonly thrown: unknown, readonly attempt: Attempt) {
    super('attempt interrupted');
  }
}

/**
 * What differs between asking a model for an answer and running an agent CLI that edits the workspace itself. Every
 * model-only rule is in `turns/modelTurn.ts`, every agent-only rule in `turns/agentTurn.ts`; the steps never ask which.
 */
export interface Turn {
  readonly kind: 'model' | 'agent' | 'autofix';
  /** False for a turn no model takes part in (the project's fixers): no prompt, no tokens, attempt 0, not counted. */
  readonly needsModel: boolean;
  /** Before the prompt is built: an agent (not one outside) stops the run on a person's edits since the last state. */
  beforePrompt(ctx: LoopContext, state: RunState): Promise<void>;
  /** Before the actor is asked: an agent's mark of what it must leave alone outside the snapshots; a model: null. */
  mark(ctx: LoopContext, state: RunState): Promise<OutsideMark | null>;
  /** Asks once. The answer, or the attempt already over (an answer too large, an agent past its own time). */
  ask(ctx: LoopContext, state: RunState, attempt: Attempt): Promise<ActorResponse | AttemptOver>;
  /** After the answer: a person's edits during a model's call; what an agent changed outside, its account, its failure. */
  afterAsk(ctx: LoopContext, state: RunState, attempt: Attempt): Promise<StepResult>;
  /** Writes a model's blocks, or accepts an agent's edits path by path. False: invalid, the reason in record.note. */
  apply(ctx: ApplyContext, state: RunState, attempt: Attempt): Promise<boolean>;
  /** The snapshot after the edit: a look at the files a model wrote, or what accepting an agent's edits recorded. */
  snapshotAfter(ctx: LoopContext, attempt: Attempt): Promise<SnapshotRef>;
}

export function newAttempt(ctx: LoopContext, state: RunState, turn: Turn): Attempt {
  return {
    n: turn.needsModel ? attemptsUsed(state) + 1 : 0, startedAt: ctx.deps.clock.now(), turn, from: state.current,
    record: null, prompt: null, outside: null, response: null, actorNote: '', after: null, judged: null, settled: null, verdict: null,
  };
}

/** The record, once the attempt has one (every step after prepare may count on it). */
export function recordOf(attempt: Attempt): IterationRecord {
  if (!attempt.record) throw new Error(`Attempt ${attempt.n} has no record yet.`);
  return attempt.record;
}
