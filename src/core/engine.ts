// The bounded loop: propose → snapshot → apply → verify, until code (never the model) says stop.
import { newRunId } from '../shared/runId';
import type { Actor, ActorResponse, Clock, SnapshotRef, SnapshotStore, TokenUsage, Verifier } from './ports';
import { ActorError, VerifyError } from './ports';
import type { LoopConfig } from '../shared/config';
import type { Witness } from '../verify/types';
import type { EscalationReason, FinalState, IterationRecord, Outcome, RunState, StateRef, Verdict, WitnessSummary } from './runState';
import { LoopEmitter } from './events';
import { checkAfterIteration, checkBudgets, escalate } from './termination';
import type { Stop } from './termination';
import { judge, listForNote } from './witnessCompare';
import type { Judgement } from './witnessCompare';
import { buildPrompt, DEFAULT_PROMPT_OPTIONS, systemPrompt } from './prompt';
import { isAbortError, RetryOutlastsBudget, withRetries } from './retry';
import type { RetryOptions } from './retry';
import { isProtected, makePathPolicy } from './edits/pathPolicy';
import { acceptAgentEdits, applyModelAnswer } from './applyProposal';
import type { PathPolicy } from './edits/pathPolicy';
import { configHash } from './history';
import type { HistoryRecord } from './history';
import { checkCrossRun } from './crossRunGuard';
import { RunDeadline } from './deadline';
import { applyGrant, tokenRoom } from './budget';
import type { Grant } from './budget';
import { KnownStates } from './knownStates';
import { findFlaky } from './flaky';
import { changedUnrecorded } from './unrecordedChanges';
import { estimateTokens } from './estimateTokens';

export type { Grant } from './budget';

export interface EngineDeps {
  cwd: string;
  actor: Actor;
  verifier: Verifier;
  snapshots: SnapshotStore;
  clock: Clock;
  config: LoopConfig;
  runId?: string;
  /** Earlier runs on this workspace, for the cross-run guard (refuse to repeat a failing approach). */
  pastRuns?: HistoryRecord[];
  /** The person chose to run even though the cross-run guard would stop it. */
  ignoreHistory?: boolean;
  /** Retry timing for transient actor errors (tests shorten it). */
  retry?: Pick<RetryOptions, 'baseMs' | 'maxMs' | 'retries'>;
}

type AnyStop = Stop | { outcome: Outcome; reason: EscalationReason | null; text: string };

/** An escalation or finish decided inside an iteration, carried out by the loop. */
class StopLoop {
  constructor(readonly stop: AnyStop) {}
}

export class LoopEngine {
  readonly events = new LoopEmitter();
  private readonly policy: PathPolicy;
  private readonly known: KnownStates;
  private deadline: RunDeadline | null = null;

  constructor(private readonly deps: EngineDeps) {
    this.policy = makePathPolicy({
      root: deps.cwd,
      protectedGlobs: deps.config.protectedGlobs,
      allowTestEdits: deps.config.allowTestEdits,
      excludes: deps.config.snapshotExcludes,
    });
    this.known = new KnownStates(deps.snapshots);
  }

  /** Runs a new loop from the workspace as it is now. Always resolves with the whole state. */
  async run(signal: AbortSignal): Promise<RunState> {
    const { deps } = this;
    const startedAt = deps.clock.now();
    const deadline = this.startDeadline(signal, startedAt, deps.config.maxMinutes, 0);
    try {
      const baselineSnap = await deps.snapshots.snapshot('baseline');
      let witness: Witness;
      try {
        witness = await deps.verifier.verify(deadline.signal);
      } catch (err) {
        if (deadline.expired) return this.finishUnverified(startedAt, baselineSnap, 'budget-time', `The time budget (${deps.config.maxMinutes} min) ran out before the first test run finished; nothing was changed.`);
        if (isAbortError(err) || signal.aborted) throw err;
        const text = err instanceof VerifyError ? err.message : `The verifier failed before the loop started: ${(err as Error).message}`;
        return this.finishUnverified(startedAt, baselineSnap, 'verify-error', text);
      }
      if (deadline.expired) return this.finishUnverified(startedAt, baselineSnap, 'budget-time', `The time budget (${deps.config.maxMinutes} min) ran out before the first test run finished; nothing was changed.`);
      if (signal.aborted) throw abortNow();
      const unusable = baselineProblem(witness, deps.config.verifyTimeoutS);
      if (unusable) return this.finishUnverified(startedAt, baselineSnap, 'verify-error', unusable, witness);

      const base: StateRef = { snapshot: baselineSnap.id, tree: baselineSnap.tree, witness: summarize(witness), iteration: 0 };
      const state = newRunState(deps, deps.runId ?? newRunId(startedAt), startedAt, base);
      const settledBase = await this.settle(state, baselineSnap);
      state.current = { snapshot: settledBase.id, tree: settledBase.tree, witness: base.witness };
      state.kept.push({ identity: await this.known.identityOf(state, baselineSnap.id), snapshot: baselineSnap.id, iteration: 0 });
      this.events.emit({ type: 'run-started', runId: state.runId, baselineFailing: base.witness.failing.length, baselineDiagnostics: base.witness.diagnostics.length, resumed: false, state });
      for (const w of base.witness.warnings ?? []) this.warn(state, w);
      if (witness.green) return await this.finish(state, { outcome: 'green', reason: null, text: 'Already green: nothing to fix.' });

      const guard = checkCrossRun(deps.pastRuns ?? [], configHash(state), base.witness.failing, deps.config.crossRunLimit);
      if (guard?.blocked && !deps.ignoreHistory) {
        state.crossRun = guard.text;
        return await this.finish(state, escalate('stagnation', guard.text));
      }
      if (guard) {
        state.crossRun = guard.blocked ? `${guard.text} You chose to run anyway.` : guard.text;
        this.warn(state, state.crossRun);
      }
      return await this.loop(state, signal);
    } finally {
      this.stopDeadline();
    }
  }

  /** Continues an escalated or cancelled run with a person's hint and an explicit extra budget. */
  async resume(state: RunState, grant: Grant, signal: AbortSignal): Promise<RunState> {
    upgradeSavedState(state);
    const now = this.deps.clock.now();
    if (state.finishedAt !== null) state.elapsedBeforeMs += state.finishedAt - state.startedAt;
    state.startedAt = now;
    applyGrant(state, grant, now);
    if (grant.hint.trim()) state.hints.push(grant.hint.trim());
    // The grant restarts the patience window on purpose and says so; iteration, token and time counters keep counting.
    state.consecutiveNoProgress = 0;
    const granted = [grant.iterations ? `+${grant.iterations} attempts` : '', grant.tokens ? `+${grant.tokens} tokens` : '', grant.minutes ? `+${grant.minutes} min` : ''].filter(Boolean);
    state.warnings.push(`Resumed${granted.length ? ` with ${granted.join(', ')}` : ''}${grant.hint ? ` and the hint "${grant.hint}"` : ''}; the patience window restarts.`);
    state.outcome = 'running';
    state.reason = null;
    state.reasonText = '';
    state.finalState = null;
    state.finishedAt = null;
    this.startDeadline(signal, now, state.limits.maxMinutes, state.elapsedBeforeMs);
    try {
      try {
        await this.startFromPersonsWorkspace(state);
      } catch (err) {
        // The person's workspace was not verified yet: stop without restoring anything over it.
        return this.finishInPlace(state, err instanceof StopLoop ? err.stop : this.stopFor(err, signal));
      }
      this.events.emit({ type: 'run-started', runId: state.runId, baselineFailing: state.baseline.witness.failing.length, baselineDiagnostics: state.baseline.witness.diagnostics.length, resumed: true, state });
      if (state.current.witness.green) return await this.finish(state, { outcome: 'green', reason: null, text: 'The workspace is already green.' });
      return await this.loop(state, signal);
    } finally {
      this.stopDeadline();
    }
  }

  /**
   * A resumed run starts from the workspace as the person left it. When they changed files while the run was
   * parked, that state becomes the floor (and the best): nothing the loop does later may remove their edits.
   */
  private async startFromPersonsWorkspace(state: RunState): Promise<void> {
    const snap = await this.deps.snapshots.snapshot('resume');
    if (snap.tree === state.current.tree) return;
    const changed = await this.deps.snapshots.changedBetween(state.current.snapshot, snap.id);
    const witness = summarize(await this.verifyOrThrow(this.signal()));
    const ref: StateRef = { snapshot: snap.id, tree: snap.tree, witness, iteration: state.iterations.length };
    const settled = await this.settle(state, snap);
    state.current = { snapshot: settled.id, tree: settled.tree, witness };
    state.floor = ref;
    state.best = ref;
    state.kept.push({ identity: await this.known.identityOf(state, snap.id), snapshot: snap.id, iteration: ref.iteration });
    const shown = changed.length ? ` (${changed.slice(0, 3).join(', ')}${changed.length > 3 ? ` and ${changed.length - 3} more` : ''})` : '';
    state.warnings.push(`Resumed from the workspace as you left it${shown}: ${witness.failing.length} failing; the run will never leave it worse than that, and never undo your edits.`);
  }

  private async loop(state: RunState, signal: AbortSignal): Promise<RunState> {
    try {
      for (;;) {
        const before = checkBudgets(state, this.deps.clock.now());
        if (before) return await this.finish(state, before);
        const stop = await this.iterate(state);
        if (stop) return await this.finish(state, stop);
      }
    } catch (err) {
      if (err instanceof StopLoop) return this.finish(state, err.stop);
      return this.finish(state, this.stopFor(err, signal));
    }
  }

  /** What an exception out of an attempt means: the time budget, the person's Stop, or a bug. */
  private stopFor(err: unknown, signal: AbortSignal): AnyStop {
    if (err instanceof RetryOutlastsBudget) return escalate('budget-time', `Ran out of time: ${err.message}`);
    if (this.deadline?.expired && !signal.aborted) return escalate('budget-time', 'Ran out of time: the time budget ended during an attempt; what was in flight was stopped and its edit undone.');
    if (isAbortError(err) || signal.aborted) return { outcome: 'cancelled', reason: null, text: 'Cancelled by the user.' };
    const message = err instanceof Error ? err.message : String(err);
    return { outcome: 'error', reason: null, text: `Internal error: ${message}` };
  }

  /** One attempt. Returns a stop decision, or null to go on. */
  private async iterate(state: RunState): Promise<Stop | null> {
    const { deps } = this;
    const n = state.iterations.length + 1;
    const t0 = deps.clock.now();
    this.events.emit({ type: 'iteration-started', n, max: state.limits.maxIterations });
    const settled = state.current;
    await this.guardUserEdits(state);

    const prompt = buildPrompt(state, t0, { ...DEFAULT_PROMPT_OPTIONS, isProtected: (rel) => isProtected(this.policy, rel), allowTestEdits: deps.config.allowTestEdits, editsWorkspace: deps.actor.editsWorkspace });
    const system = systemPrompt(deps.config.allowTestEdits, deps.actor.editsWorkspace);
    const room = tokenRoom(state, estimateTokens(system) + estimateTokens(prompt));
    if (!room.ok) return escalate('budget-tokens', room.text);
    const requestsBefore = state.requests;
    const unrecordedBefore = await this.unrecordedFingerprint(state);
    const response = await this.callActor(state, n, prompt, system, room.maxOutputTokens);
    state.llmCalls += 1;
    addTokens(state.tokens, response.usage);
    // A model call can take minutes; a person may have typed meanwhile. (An agent CLI's own edits are checked below.)
    if (response.kind === 'text') await this.guardUserEdits(state);

    const record: IterationRecord = {
      n, startedAt: t0, verdict: 'invalid-proposal', failing: settled.witness.failing, diagnostics: settled.witness.diagnostics.length,
      rolledBack: false, treeHash: null, proposalHash: null, files: [], tokens: { prompt: response.usage.prompt, completion: response.usage.completion },
      durationMs: 0, note: '', hypothesis: '', beforeSnapshot: settled.snapshot, afterSnapshot: null, witness: null,
      requests: state.requests - requestsBefore,
    };
    if (response.kind === 'workspace-edited' && response.failure) {
      const seen = state.agentFailures ?? (state.agentFailures = []);
      if (seen.includes(response.failure.signature)) {
        await this.restoreIfChanged(settled.snapshot);
        record.note = `${response.failure.text}\n(the same failure as an earlier attempt)`;
        this.record(state, record, 'invalid-proposal', t0);
        return escalate('actor-error', `The agent failed the same way twice: ${response.failure.text}`);
      }
      seen.push(response.failure.signature);
    }
    const ctx = { cwd: deps.cwd, policy: this.policy, snapshots: deps.snapshots };
    const applied = response.kind === 'text' ? await applyModelAnswer(ctx, state, record, response.text) : await acceptAgentEdits(ctx, state, record);
    if (unrecordedBefore) await this.noteUnrecorded(state, record, unrecordedBefore, applied);
    // The agent's failure is told, never judged: what it changed goes to the tests all the same.
    const agentNote = response.kind === 'workspace-edited' && response.failure ? response.failure.text : '';
    if (agentNote && !applied) record.note = `${record.note} ${agentNote}`;
    this.events.emit({ type: 'proposal-received', n, tokens: record.tokens, files: record.files });
    if (!applied) return this.record(state, record, 'invalid-proposal', t0);

    this.events.emit({ type: 'applied', n, files: record.files });
    const after = await deps.snapshots.snapshot(`iteration-${n}`);
    record.treeHash = after.tree;
    record.afterSnapshot = after.id;
    const revisit = this.known.find(state, await this.known.identityOf(state, after.id));
    if (revisit) return this.revisited(state, record, revisit, t0);

    this.events.emit({ type: 'verifying', n });
    const judged = await this.judgeWithReruns(state, record, summarize(await this.verifyOrStop(state, record)));
    const { j, witness } = judged;
    record.witness = witness;
    record.failing = witness.failing;
    record.diagnostics = witness.diagnostics.length;
    record.ran = witness.ranCount ?? (witness.ran ? witness.ran.length : null);

    record.note = agentNote ? `${j.note} (${agentNote})` : j.note;
    record.missing = j.missing;
    if (j.verdict === 'regression') {
      await deps.snapshots.restore(state.best.snapshot);
      record.rolledBack = true;
      state.current = { snapshot: state.best.snapshot, tree: state.best.tree, witness: state.best.witness };
      state.rejected.push({ identity: await this.known.identityOf(state, after.id), snapshot: after.id, iteration: n });
      state.feedback = regressionFeedback(j);
      record.note = `${record.note}; rolled back to the best state`;
    } else {
      // Verification may write files (reports, caches); the settled snapshot makes them part of "before" for the next guard.
      const settledAfter = await this.settle(state, after);
      state.current = { snapshot: settledAfter.id, tree: settledAfter.tree, witness };
      state.kept.push({ identity: await this.known.identityOf(state, after.id), snapshot: after.id, iteration: n });
      if (j.verdict === 'progress' || j.verdict === 'green') {
        state.best = { snapshot: after.id, tree: after.tree, witness, iteration: n };
      }
      state.feedback = j.verdict === 'no-progress' ? `no test changed state (${j.note}); the edit is kept but did not help.` : j.note;
    }
    if (record.flaky?.length) state.feedback += ` (${listForNote(record.flaky)} failed and then passed on the same files: flaky, not counted either way.)`;
    return this.record(state, record, j.verdict, t0);
  }

  /** The edit led to a state already verified: its witness is known, the tests do not run again. */
  private async revisited(state: RunState, record: IterationRecord, revisit: NonNullable<ReturnType<KnownStates['find']>>, t0: number): Promise<Stop | null> {
    const { earlier } = revisit;
    const when = earlier.iteration === 0 ? 'the state the run started from' : `the state after attempt ${earlier.iteration}`;
    const known = earlier.iteration === 0 ? state.baseline.witness : state.iterations[earlier.iteration - 1]?.witness ?? state.floor.witness;
    record.witness = known;
    record.failing = known.failing;
    record.diagnostics = known.diagnostics.length;
    if (revisit.kind === 'kept') {
      // Back in a state the loop kept: leave the workspace there (it is a state it was in) and stop.
      const settledAfter = await this.settle(state, { id: record.afterSnapshot!, tree: record.treeHash! });
      state.current = { snapshot: settledAfter.id, tree: settledAfter.tree, witness: known };
      record.note = `returned the workspace to ${when} (known, so not tested again)`;
      this.record(state, record, 'no-progress', t0);
      return escalate('cycle', `Attempt ${record.n} returned the workspace to ${when}; the model is going in circles.`);
    }
    await this.deps.snapshots.restore(state.best.snapshot);
    record.rolledBack = true;
    state.current = { snapshot: state.best.snapshot, tree: state.best.tree, witness: state.best.witness };
    record.note = `made the same change as attempt ${earlier.iteration}, which was rolled back as a regression (known, so not tested again); rolled back`;
    this.record(state, record, 'regression', t0);
    return escalate('repeated-proposal', `Attempt ${record.n} made the same change as attempt ${earlier.iteration}, which had broken tests and was rolled back.`);
  }

  /**
   * The judgement, after re-runs on the same files: a newly failing test that then passes is flaky, not broken;
   * a state whose only failures are tests already found flaky is run again whole, and green if that run is.
   */
  private async judgeWithReruns(state: RunState, record: IterationRecord, witness: WitnessSummary): Promise<{ j: Judgement; witness: WitnessSummary }> {
    const { config } = this.deps;
    const j = judge(state.best.witness, witness, { flaky: state.flaky });
    if (config.flakyReruns <= 0) return { j, witness };
    const onlyFlaky = !witness.green && !witness.loadError && witness.diagnostics.length === 0 && witness.failing.length > 0 && witness.failing.every((id) => state.flaky.includes(id));
    if (onlyFlaky && j.verdict !== 'regression') {
      for (let r = 0; r < config.flakyReruns; r++) {
        const again = summarize(await this.deps.verifier.verify(this.signal()));
        if (!again.green) continue;
        const green = judge(state.best.witness, again, { flaky: state.flaky });
        if (green.verdict === 'green') return { j: { ...green, note: `${green.note} (on a re-run: ${listForNote(witness.failing)} failed first and ${witness.failing.length === 1 ? 'is' : 'are'} flaky)` }, witness: again };
      }
      return { j, witness };
    }
    if (j.verdict !== 'regression' || j.newTests.length === 0) return { j, witness };
    const check = await findFlaky(this.deps.verifier, j.newTests, config.flakyReruns, this.signal());
    if (check.flaky.length === 0) return { j, witness };
    record.flaky = check.flaky;
    state.flaky = [...new Set([...state.flaky, ...check.flaky])].sort();
    this.warn(state, `Flaky test${check.flaky.length === 1 ? '' : 's'} found in attempt ${record.n}: ${check.flaky.join(', ')}; ${check.flaky.length === 1 ? 'it counts' : 'they count'} neither as progress nor as regression.`);
    const again = judge(state.best.witness, witness, { flaky: state.flaky });
    return { j: { ...again, note: `${again.note}; flaky (failed, then passed on re-run): ${listForNote(check.flaky)}` }, witness };
  }

  private async settle(state: RunState, after: SnapshotRef): Promise<SnapshotRef> {
    const changed = await this.deps.snapshots.changedSince(after.id);
    if (changed.length === 0) return after;
    // What changed while only the tests ran was written by them: reports and caches, not a state of the code.
    await this.known.addArtifacts(state, changed);
    return this.deps.snapshots.snapshot('settled');
  }

  private record(state: RunState, record: IterationRecord, verdict: Verdict, t0: number): Stop | null {
    record.verdict = verdict;
    record.durationMs = this.deps.clock.now() - t0;
    if (verdict === 'invalid-proposal') state.feedback = record.note;
    state.consecutiveNoProgress = verdict === 'progress' || verdict === 'green' ? 0 : state.consecutiveNoProgress + 1;
    if (record.proposalHash) state.seenProposals.push(record.proposalHash);
    state.iterations.push(record);
    this.events.emit({ type: 'verified', n: record.n, verdict, failing: record.failing.length, diagnostics: record.diagnostics, rolledBack: record.rolledBack, note: record.note, iteration: record });
    return checkAfterIteration(state, this.deps.clock.now());
  }

  private async callActor(state: RunState, n: number, prompt: string, system: string, maxOutputTokens: number | undefined): Promise<ActorResponse> {
    const signal = this.signal();
    try {
      return await withRetries(
        () => {
          state.requests += 1;
          return this.deps.actor.propose({ prompt, system, iteration: n, cwd: this.deps.cwd, signal, maxOutputTokens });
        },
        {
          ...this.deps.retry,
          clock: this.deps.clock,
          signal,
          deadline: this.deadline ?? undefined,
          onRetry: (err, attempt, delayMs) => this.events.emit({ type: 'retrying', n, attempt, delayMs, message: err.message }),
        },
      );
    } catch (err) {
      // A command actor may have half-edited the workspace before failing or being stopped.
      if (err instanceof ActorError || err instanceof RetryOutlastsBudget || isAbortError(err)) await this.restoreIfChanged(state.current.snapshot);
      if (err instanceof ActorError) throw new StopLoop({ outcome: 'escalated', reason: 'actor-error', text: err.message });
      throw err;
    }
  }

  private async verifyOrThrow(signal: AbortSignal): Promise<Witness> {
    try {
      return await this.deps.verifier.verify(signal);
    } catch (err) {
      if (isAbortError(err) || signal.aborted) throw err;
      throw new StopLoop({ outcome: 'escalated', reason: 'verify-error', text: `The verifier could not run: ${(err as Error).message}` });
    }
  }

  private async verifyOrStop(state: RunState, record: IterationRecord): Promise<Witness> {
    const signal = this.signal();
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
    if (signal.aborted) throw abortNow();
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

  /** Only agent CLIs write files themselves; a model's edits never reach an unrecorded file (they are refused). */
  private async unrecordedFingerprint(state: RunState): Promise<Map<string, string> | null> {
    if (!this.deps.actor.editsWorkspace || !this.deps.snapshots.unrecordedFingerprint) return null;
    const fp = await this.deps.snapshots.unrecordedFingerprint();
    if (fp === null) this.warn(state, 'There are too many git-ignored files to check which of them the agent changes; changes there cannot be seen or rolled back.');
    return fp;
  }

  private async noteUnrecorded(state: RunState, record: IterationRecord, before: Map<string, string>, applied: boolean): Promise<void> {
    const after = await this.deps.snapshots.unrecordedFingerprint?.();
    if (!after) return;
    const changed = changedUnrecorded(before, after);
    if (changed.length === 0) return;
    record.unrecorded = changed;
    state.unrecordedChanged = [...new Set([...(state.unrecordedChanged ?? []), ...changed])].sort();
    const shown = `${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ` and ${changed.length - 5} more` : ''}`;
    const what = `The agent changed ${changed.length} git-ignored file${changed.length === 1 ? '' : 's'} that snapshots do not record (${shown}); Greenloop cannot roll ${changed.length === 1 ? 'it' : 'them'} back.`;
    record.note = applied ? what : `${what} Nothing it changed is recorded, so the attempt is not tested.`;
    this.warn(state, what);
  }

  private warn(state: RunState, message: string): void {
    if (!state.warnings.includes(message)) state.warnings.push(message);
    this.events.emit({ type: 'warning', message });
  }

  /** The baseline could not be verified: no loop, no model call, a report that says why. */
  private async finishUnverified(startedAt: number, snap: SnapshotRef, reason: EscalationReason, text: string, witness?: Witness): Promise<RunState> {
    const summary: WitnessSummary = witness ? summarize(witness) : {
      failing: [], failures: [], diagnostics: [], loadError: true, green: false, signature: '', exitCode: null, timedOut: false,
      outputExcerpt: '', ran: null, skipped: [], ranCount: null, executed: null, warnings: [],
    };
    const base: StateRef = { snapshot: snap.id, tree: snap.tree, witness: summary, iteration: 0 };
    const state = newRunState(this.deps, this.deps.runId ?? newRunId(startedAt), startedAt, base);
    this.events.emit({ type: 'run-started', runId: state.runId, baselineFailing: summary.failing.length, baselineDiagnostics: summary.diagnostics.length, resumed: false, state });
    await this.restoreIfChanged(snap.id).catch(() => undefined);
    state.outcome = 'escalated';
    state.reason = reason;
    state.reasonText = text;
    state.finalState = 'baseline';
    this.events.emit({ type: 'escalated', reason, message: text });
    state.finishedAt = this.deps.clock.now();
    this.events.emit({ type: 'finished', outcome: state.outcome, state });
    return state;
  }

  /** Stops without touching a file: the workspace is left exactly as it is. */
  private finishInPlace(state: RunState, stop: AnyStop): RunState {
    state.outcome = stop.outcome;
    state.reason = stop.reason;
    state.reasonText = stop.text;
    state.finalState = 'last';
    if (stop.outcome === 'escalated' && stop.reason) this.events.emit({ type: 'escalated', reason: stop.reason, message: stop.text });
    state.finishedAt = this.deps.clock.now();
    this.events.emit({ type: 'finished', outcome: state.outcome, state });
    return state;
  }

  private async finish(state: RunState, stop: AnyStop): Promise<RunState> {
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

  /**
   * After files no snapshot records were changed, a restored state is not the state its witness described: run
   * the tests once more so the report says what they say on disk (unless time or the person already said stop).
   */
  private async reverifyFinal(state: RunState): Promise<void> {
    if (!state.unrecordedChanged?.length) return;
    if (!this.deadline || this.deadline.signal.aborted) {
      this.warn(state, 'Git-ignored files changed during the run and the final state could not be tested again; run the tests to see where it stands.');
      return;
    }
    try {
      state.current = { ...state.current, witness: summarize(await this.deps.verifier.verify(this.deadline.signal)) };
      this.warn(state, `Git-ignored files changed during the run (${state.unrecordedChanged.slice(0, 3).join(', ')}…), so the final state was tested again: ${state.current.witness.failing.length} failing.`);
    } catch (err) {
      this.warn(state, `The final state could not be tested again: ${(err as Error).message}`);
    }
  }

  /** Gives up cleanly: the workspace ends at the best state (or the floor/last per setting), never worse than the floor. */
  private async leaveWorkspace(state: RunState): Promise<FinalState> {
    const target: FinalState = state.config.onGiveUp === 'restore-baseline' ? 'baseline' : state.config.onGiveUp === 'keep-last' ? 'last' : 'best';
    // "baseline" after a resume is the floor: the workspace as the person left it, their edits included.
    const ref = target === 'baseline' ? state.floor : target === 'best' ? state.best : null;
    try {
      if (ref) {
        if ((await this.deps.snapshots.changedSince(ref.snapshot)).length) await this.deps.snapshots.restore(ref.snapshot);
        state.current = { snapshot: ref.snapshot, tree: ref.tree, witness: ref.witness };
      } else {
        // "last" is whatever the loop last kept; a half-applied or rolled-back edit is never left behind.
        await this.restoreIfChanged(state.current.snapshot);
      }
    } catch (err) {
      this.warn(state, `Could not restore the ${target} state: ${(err as Error).message}`);
    }
    await this.reverifyFinal(state);
    return target;
  }

  private startDeadline(signal: AbortSignal, now: number, maxMinutes: number, elapsedBeforeMs: number): RunDeadline {
    const at = maxMinutes > 0 ? now + maxMinutes * 60_000 - elapsedBeforeMs : null;
    this.deadline = new RunDeadline(this.deps.clock, signal, at);
    return this.deadline;
  }

  private stopDeadline(): void {
    this.deadline?.dispose();
    this.deadline = null;
  }

  /** Everything that can take long gets this: it aborts on Stop and when the time budget ends. */
  private signal(): AbortSignal {
    if (!this.deadline) throw new Error('No run is in progress.');
    return this.deadline.signal;
  }
}

function newRunState(deps: EngineDeps, runId: string, startedAt: number, base: StateRef): RunState {
  return {
    runId,
    cwd: deps.cwd,
    actorLabel: deps.actor.label,
    startedAt,
    elapsedBeforeMs: 0,
    config: deps.config,
    limits: { maxIterations: deps.config.maxIterations, maxTokens: deps.config.maxTokens, maxMinutes: deps.config.maxMinutes },
    grants: [],
    baseline: base,
    floor: base,
    best: base,
    current: { snapshot: base.snapshot, tree: base.tree, witness: base.witness },
    iterations: [],
    kept: [],
    rejected: [],
    artifacts: [],
    seenProposals: [],
    flaky: [],
    consecutiveNoProgress: 0,
    tokens: { prompt: 0, completion: 0 },
    llmCalls: 0,
    requests: 0,
    outcome: 'running',
    reason: null,
    reasonText: '',
    finalState: null,
    feedback: '',
    hints: [],
    warnings: [],
    finishedAt: null,
  };
}

/** Runs saved by an earlier version lack the fields newer checks need; they start empty (never a false cycle). */
function upgradeSavedState(state: RunState): void {
  state.floor ??= state.baseline;
  state.kept ??= [];
  state.rejected ??= [];
  state.artifacts ??= [];
  state.flaky ??= [];
  state.requests ??= state.llmCalls;
  state.seenProposals ??= [];
}

/** Why the unchanged workspace cannot be the start of a loop, or null when it can. */
function baselineProblem(w: Witness, timeoutS: number): string | null {
  if (w.timedOut) return `The test command did not finish within ${timeoutS} s on the unchanged workspace; raise the verifier timeout or fix the hang first.`;
  if (!w.loadError && w.warnings.some((m) => /ran no tests/.test(m))) return `${w.warnings.find((m) => /ran no tests/.test(m))} Nothing to fix against.`;
  return null;
}

function regressionFeedback(j: Judgement): string {
  if (j.missing.length) return `after your edit ${j.missing.length} test${j.missing.length === 1 ? '' : 's'} that ran before did not run at all (${listForNote(j.missing)}): tests that disappear count as broken, never as fixed; it was rolled back.`;
  if (j.fewerRan) return `after your edit fewer tests ran (${j.fewerRan[0]} before, ${j.fewerRan[1]} now): tests that disappear count as broken, never as fixed; it was rolled back.`;
  return `your edit broke ${j.newlyFailing.slice(0, 5).map((s) => `\`${s}\``).join(', ')}; it was rolled back. Keep what passes passing.`;
}

export function summarize(w: Witness): WitnessSummary {
  const executed = w.passedCount !== null ? w.passedCount + (w.failedCount ?? 0) : w.ran ? w.ran.length - w.skipped.length : null;
  return {
    failing: w.failing, failures: w.failures, diagnostics: w.diagnostics, loadError: w.loadError, green: w.green,
    signature: w.signature, exitCode: w.exitCode, timedOut: w.timedOut, outputExcerpt: w.outputExcerpt,
    ran: w.ran, skipped: w.skipped, ranCount: w.ranCount, executed, warnings: w.warnings,
  };
}

function abortNow(): Error {
  const err = new Error('Cancelled.');
  err.name = 'AbortError';
  return err;
}

function addTokens(total: TokenUsage, add: TokenUsage): void {
  total.prompt += add.prompt;
  total.completion += add.completion;
  if (add.estimated) total.estimated = true;
}
