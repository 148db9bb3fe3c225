// The bounded loop: propose → snapshot → apply → verify, until code (never the model) says stop.
import { newRunId } from '../shared/runId';
import type { Actor, ActorResponse, Clock, SnapshotRef, SnapshotStore, TokenUsage, Verifier } from './ports';
import { ActorError, VerifyError } from './ports';
import type { LoopConfig } from '../shared/config';
import type { Witness } from '../verify/types';
import type { EscalationReason, FinalState, IterationRecord, Outcome, RunState, StateRef, Verdict, WitnessSummary } from './runState';
import { LoopEmitter } from './events';
import { checkAfterIteration, checkBudgets } from './termination';
import type { Stop } from './termination';
import { judge } from './witnessCompare';
import { buildPrompt, DEFAULT_PROMPT_OPTIONS, systemPrompt } from './prompt';
import { isAbortError, withRetries } from './retry';
import type { RetryOptions } from './retry';
import { isProtected, makePathPolicy } from './edits/pathPolicy';
import { acceptAgentEdits, applyModelAnswer } from './applyProposal';
import type { PathPolicy } from './edits/pathPolicy';
import { configHash, repeatedEscalationWarning } from './history';
import type { HistoryRecord } from './history';

export interface EngineDeps {
  cwd: string;
  actor: Actor;
  verifier: Verifier;
  snapshots: SnapshotStore;
  clock: Clock;
  config: LoopConfig;
  runId?: string;
  /** Earlier runs on this workspace, for the cross-run guard (warn before repeating a failing approach). */
  pastRuns?: HistoryRecord[];
  /** Retry timing for transient actor errors (tests shorten it). */
  retry?: Pick<RetryOptions, 'baseMs' | 'maxMs' | 'retries'>;
}

export interface Grant {
  hint: string;
  iterations: number;
  tokens?: number;
  minutes?: number;
}

/** An escalation or finish decided inside an iteration, carried out by the loop. */
class StopLoop {
  constructor(readonly stop: Stop | { outcome: 'cancelled' | 'error'; reason: EscalationReason | null; text: string }) {}
}

export class LoopEngine {
  readonly events = new LoopEmitter();
  private readonly policy: PathPolicy;

  constructor(private readonly deps: EngineDeps) {
    this.policy = makePathPolicy({
      root: deps.cwd,
      protectedGlobs: deps.config.protectedGlobs,
      allowTestEdits: deps.config.allowTestEdits,
      excludes: deps.config.snapshotExcludes,
    });
  }

  /** Runs a new loop from the workspace as it is now. Always resolves with the whole state. */
  async run(signal: AbortSignal): Promise<RunState> {
    const { deps } = this;
    const startedAt = deps.clock.now();
    const baselineSnap = await deps.snapshots.snapshot('baseline');
    let witness: Witness;
    try {
      witness = await deps.verifier.verify(signal);
    } catch (err) {
      if (isAbortError(err) || signal.aborted) throw err;
      throw err instanceof VerifyError ? err : new VerifyError(`The verifier failed before the loop started: ${(err as Error).message}`);
    }
    if (witness.timedOut) {
      throw new VerifyError(`The test command did not finish within ${deps.config.verifyTimeoutS} s on the unchanged workspace; raise the verifier timeout or fix the hang first.`);
    }
    const base: StateRef = { snapshot: baselineSnap.id, tree: baselineSnap.tree, witness: summarize(witness), iteration: 0 };
    const settledBase = await this.settle(baselineSnap);
    const state: RunState = {
      runId: deps.runId ?? newRunId(startedAt),
      cwd: deps.cwd,
      actorLabel: deps.actor.label,
      startedAt,
      elapsedBeforeMs: 0,
      config: deps.config,
      limits: { maxIterations: deps.config.maxIterations, maxTokens: deps.config.maxTokens, maxMinutes: deps.config.maxMinutes },
      grants: [],
      baseline: base,
      best: base,
      current: { snapshot: settledBase.id, tree: settledBase.tree, witness: base.witness },
      iterations: [],
      seenTrees: [base.tree],
      seenProposals: [],
      consecutiveNoProgress: 0,
      tokens: { prompt: 0, completion: 0 },
      llmCalls: 0,
      outcome: 'running',
      reason: null,
      reasonText: '',
      finalState: null,
      feedback: '',
      hints: [],
      warnings: [],
      finishedAt: null,
    };
    this.events.emit({ type: 'run-started', runId: state.runId, baselineFailing: base.witness.failing.length, baselineDiagnostics: base.witness.diagnostics.length, resumed: false, state });
    const repeated = witness.green ? null : repeatedEscalationWarning(deps.pastRuns ?? [], configHash(state), base.witness.failing);
    if (repeated) {
      state.warnings.push(repeated);
      this.events.emit({ type: 'warning', message: repeated });
    }
    if (witness.green) return this.finish(state, { outcome: 'green', reason: null, text: 'Already green: nothing to fix.' });
    return this.loop(state, signal);
  }

  /** Continues an escalated or cancelled run with a person's hint and an explicit extra budget. */
  async resume(state: RunState, grant: Grant, signal: AbortSignal): Promise<RunState> {
    const now = this.deps.clock.now();
    if (state.finishedAt !== null) state.elapsedBeforeMs += state.finishedAt - state.startedAt;
    state.startedAt = now;
    state.grants.push({ at: now, iterations: grant.iterations, tokens: grant.tokens ?? 0, minutes: grant.minutes ?? 0, hint: grant.hint });
    state.limits.maxIterations += grant.iterations;
    state.limits.maxTokens += state.limits.maxTokens > 0 ? grant.tokens ?? 0 : 0;
    state.limits.maxMinutes += state.limits.maxMinutes > 0 ? grant.minutes ?? 0 : 0;
    if (grant.hint.trim()) state.hints.push(grant.hint.trim());
    // The grant restarts the patience window on purpose and says so; iteration, token and time counters keep counting.
    state.consecutiveNoProgress = 0;
    state.warnings.push(`Resumed with +${grant.iterations} attempts${grant.hint ? ` and the hint "${grant.hint}"` : ''}; the patience window restarts.`);
    state.outcome = 'running';
    state.reason = null;
    state.reasonText = '';
    state.finalState = null;
    state.finishedAt = null;
    await this.resyncCurrent(state, signal);
    this.events.emit({ type: 'run-started', runId: state.runId, baselineFailing: state.baseline.witness.failing.length, baselineDiagnostics: state.baseline.witness.diagnostics.length, resumed: true, state });
    if (state.current.witness.green) return this.finish(state, { outcome: 'green', reason: null, text: 'The workspace is already green.' });
    return this.loop(state, signal);
  }

  /** The workspace may have changed while the run was parked (a person's edit, a rollback): look again. */
  private async resyncCurrent(state: RunState, signal: AbortSignal): Promise<void> {
    const snap = await this.deps.snapshots.snapshot('resume');
    if (snap.tree === state.current.tree) return;
    const witness = summarize(await this.deps.verifier.verify(signal));
    state.current = { snapshot: snap.id, tree: snap.tree, witness };
    if (!state.seenTrees.includes(snap.tree)) state.seenTrees.push(snap.tree);
    const j = judge(state.best.witness, witness);
    if (j.verdict === 'progress' || j.verdict === 'green') state.best = { snapshot: snap.id, tree: snap.tree, witness, iteration: state.iterations.length };
  }

  private async loop(state: RunState, signal: AbortSignal): Promise<RunState> {
    try {
      for (;;) {
        const before = checkBudgets(state, this.deps.clock.now());
        if (before) return await this.finish(state, before);
        const stop = await this.iterate(state, signal);
        if (stop) return await this.finish(state, stop);
      }
    } catch (err) {
      if (err instanceof StopLoop) return this.finish(state, err.stop);
      if (isAbortError(err) || signal.aborted) return this.finish(state, { outcome: 'cancelled', reason: null, text: 'Cancelled by the user.' });
      const message = err instanceof Error ? err.message : String(err);
      return this.finish(state, { outcome: 'error', reason: null, text: `Internal error: ${message}` });
    }
  }

  /** One attempt. Returns a stop decision, or null to go on. */
  private async iterate(state: RunState, signal: AbortSignal): Promise<Stop | null> {
    const { deps } = this;
    const n = state.iterations.length + 1;
    const t0 = deps.clock.now();
    this.events.emit({ type: 'iteration-started', n, max: state.limits.maxIterations });
    const settled = state.current;
    await this.guardUserEdits(state);

    const prompt = buildPrompt(state, t0, { ...DEFAULT_PROMPT_OPTIONS, isProtected: (rel) => isProtected(this.policy, rel), allowTestEdits: deps.config.allowTestEdits, editsWorkspace: deps.actor.editsWorkspace });
    const response = await this.callActor(state, n, prompt, signal);
    state.llmCalls += 1;
    addTokens(state.tokens, response.usage);
    // A model call can take minutes; a person may have typed meanwhile. (An agent CLI's own edits are checked below.)
    if (response.kind === 'text') await this.guardUserEdits(state);

    const record: IterationRecord = {
      n, startedAt: t0, verdict: 'invalid-proposal', failing: settled.witness.failing, diagnostics: settled.witness.diagnostics.length,
      rolledBack: false, treeHash: null, proposalHash: null, files: [], tokens: { prompt: response.usage.prompt, completion: response.usage.completion },
      durationMs: 0, note: '', hypothesis: '', beforeSnapshot: settled.snapshot, afterSnapshot: null, witness: null,
    };
    const ctx = { cwd: deps.cwd, policy: this.policy, snapshots: deps.snapshots };
    const applied = response.kind === 'text' ? await applyModelAnswer(ctx, state, record, response.text) : await acceptAgentEdits(ctx, state, record);
    this.events.emit({ type: 'proposal-received', n, tokens: record.tokens, files: record.files });
    if (!applied) return this.record(state, record, 'invalid-proposal', t0);

    this.events.emit({ type: 'applied', n, files: record.files });
    const after = await deps.snapshots.snapshot(`iteration-${n}`);
    record.treeHash = after.tree;
    record.afterSnapshot = after.id;
    this.events.emit({ type: 'verifying', n });
    const witness = summarize(await this.verifyOrStop(state, record, signal));
    record.witness = witness;
    record.failing = witness.failing;
    record.diagnostics = witness.diagnostics.length;

    const j = judge(state.best.witness, witness);
    record.note = j.note;
    if (j.verdict === 'regression') {
      await deps.snapshots.restore(state.best.snapshot);
      record.rolledBack = true;
      state.current = { snapshot: state.best.snapshot, tree: state.best.tree, witness: state.best.witness };
      state.feedback = `your edit broke ${j.newlyFailing.slice(0, 5).map((s) => `\`${s}\``).join(', ')}; it was rolled back. Keep what passes passing.`;
      record.note = `${j.note}; rolled back to the best state`;
    } else {
      // Verification may write files (reports, caches); the settled snapshot makes them part of "before" for the next guard.
      const settledAfter = await this.settle(after);
      state.current = { snapshot: settledAfter.id, tree: settledAfter.tree, witness };
      if (j.verdict === 'progress' || j.verdict === 'green') {
        state.best = { snapshot: after.id, tree: after.tree, witness, iteration: n };
      }
      state.feedback = j.verdict === 'no-progress' ? `no test changed state (${j.note}); the edit is kept but did not help.` : j.note;
    }
    return this.record(state, record, j.verdict, t0);
  }

  private async settle(after: SnapshotRef): Promise<SnapshotRef> {
    const changed = await this.deps.snapshots.changedSince(after.id);
    return changed.length ? this.deps.snapshots.snapshot('settled') : after;
  }

  private record(state: RunState, record: IterationRecord, verdict: Verdict, t0: number): Stop | null {
    record.verdict = verdict;
    record.durationMs = this.deps.clock.now() - t0;
    if (verdict === 'invalid-proposal') state.feedback = record.note;
    state.consecutiveNoProgress = verdict === 'progress' || verdict === 'green' ? 0 : state.consecutiveNoProgress + 1;
    if (record.treeHash) state.seenTrees.push(record.treeHash);
    if (record.proposalHash) state.seenProposals.push(record.proposalHash);
    state.iterations.push(record);
    this.events.emit({ type: 'verified', n: record.n, verdict, failing: record.failing.length, diagnostics: record.diagnostics, rolledBack: record.rolledBack, note: record.note, iteration: record });
    return checkAfterIteration(state, this.deps.clock.now());
  }

  private async callActor(state: RunState, n: number, prompt: string, signal: AbortSignal): Promise<ActorResponse> {
    try {
      return await withRetries(
        () => this.deps.actor.propose({ prompt, system: systemPrompt(this.deps.config.allowTestEdits, this.deps.actor.editsWorkspace), iteration: n, cwd: this.deps.cwd, signal }),
        {
          ...this.deps.retry,
          clock: this.deps.clock,
          signal,
          onRetry: (err, attempt, delayMs) => this.events.emit({ type: 'retrying', n, attempt, delayMs, message: err.message }),
        },
      );
    } catch (err) {
      if (err instanceof ActorError) {
        // A command actor may have half-edited the workspace before failing.
        await this.restoreIfChanged(state.current.snapshot);
        throw new StopLoop({ outcome: 'escalated', reason: 'actor-error', text: err.message });
      }
      throw err;
    }
  }

  private async verifyOrStop(state: RunState, record: IterationRecord, signal: AbortSignal): Promise<Witness> {
    let witness: Witness;
    try {
      witness = await this.deps.verifier.verify(signal);
    } catch (err) {
      if (isAbortError(err) || signal.aborted) throw err;
      record.note = `The verifier could not run: ${(err as Error).message}`;
      await this.deps.snapshots.restore(state.best.snapshot);
      record.rolledBack = true;
      this.pushFailedRecord(state, record);
      throw new StopLoop({ outcome: 'escalated', reason: 'verify-error', text: record.note });
    }
    if (signal.aborted) throw Object.assign(new Error('Cancelled.'), { name: 'AbortError' });
    if (witness.timedOut) {
      record.note = `The test command did not finish within ${this.deps.config.verifyTimeoutS} s after this edit; it was rolled back.`;
      await this.deps.snapshots.restore(state.best.snapshot);
      record.rolledBack = true;
      this.pushFailedRecord(state, record);
      throw new StopLoop({ outcome: 'escalated', reason: 'verify-error', text: record.note });
    }
    return witness;
  }

  private pushFailedRecord(state: RunState, record: IterationRecord): void {
    record.verdict = 'no-progress';
    record.durationMs = this.deps.clock.now() - record.startedAt;
    state.iterations.push(record);
    state.current = { snapshot: state.best.snapshot, tree: state.best.tree, witness: state.best.witness };
  }

  /** Someone else changed files the loop owns since it last looked: stop rather than overwrite their work. */
  private async guardUserEdits(state: RunState): Promise<void> {
    const changed = await this.deps.snapshots.changedSince(state.current.snapshot);
    if (changed.length === 0) return;
    const shown = changed.slice(0, 3).join(', ') + (changed.length > 3 ? ` and ${changed.length - 3} more` : '');
    throw new StopLoop({ outcome: 'escalated', reason: 'user-edit', text: `Files changed outside the loop during the run (${shown}); stopped so nothing of yours is overwritten.` });
  }

  private async restoreIfChanged(snapshot: string): Promise<void> {
    const changed = await this.deps.snapshots.changedSince(snapshot);
    if (changed.length) await this.deps.snapshots.restore(snapshot);
  }

  private async finish(state: RunState, stop: Stop | { outcome: Outcome; reason: EscalationReason | null; text: string }): Promise<RunState> {
    state.outcome = stop.outcome;
    state.reason = stop.reason;
    state.reasonText = stop.text;
    if (stop.outcome === 'green') {
      state.finalState = state.iterations.length ? 'best' : 'baseline';
    } else if (stop.reason === 'user-edit') {
      // The person's edits are theirs: leave every file as it is.
      state.finalState = 'last';
    } else {
      state.finalState = await this.leaveWorkspace(state);
    }
    if (stop.outcome === 'escalated' && stop.reason) this.events.emit({ type: 'escalated', reason: stop.reason, message: stop.text });
    state.finishedAt = this.deps.clock.now();
    this.events.emit({ type: 'finished', outcome: state.outcome, state });
    return state;
  }

  /** Gives up cleanly: the workspace ends at the best state (or baseline/last per setting), never worse than baseline. */
  private async leaveWorkspace(state: RunState): Promise<FinalState> {
    const target: FinalState = state.config.onGiveUp === 'restore-baseline' ? 'baseline' : state.config.onGiveUp === 'keep-last' ? 'last' : 'best';
    const ref = target === 'baseline' ? state.baseline : target === 'best' ? state.best : null;
    try {
      if (ref) {
        if ((await this.deps.snapshots.changedSince(ref.snapshot)).length) await this.deps.snapshots.restore(ref.snapshot);
        state.current = { snapshot: ref.snapshot, tree: ref.tree, witness: ref.witness };
      } else {
        // "last" is whatever the loop last kept; a half-applied or rolled-back edit is never left behind.
        await this.restoreIfChanged(state.current.snapshot);
      }
    } catch (err) {
      state.warnings.push(`Could not restore the ${target} state: ${(err as Error).message}`);
      this.events.emit({ type: 'warning', message: `Could not restore the ${target} state: ${(err as Error).message}` });
    }
    return target;
  }
}

export function summarize(w: Witness): WitnessSummary {
  return {
    failing: w.failing, failures: w.failures, diagnostics: w.diagnostics, loadError: w.loadError, green: w.green,
    signature: w.signature, exitCode: w.exitCode, timedOut: w.timedOut, outputExcerpt: w.outputExcerpt,
  };
}

function addTokens(total: TokenUsage, add: TokenUsage): void {
  total.prompt += add.prompt;
  total.completion += add.completion;
  if (add.estimated) total.estimated = true;
}
