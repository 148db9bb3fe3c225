// The bounded loop: propose → snapshot → apply → verify, until code (never the model) says stop.
import { newRunId } from '../../base/runId';
import type { ActorResponse, TokenUsage } from '../../ports/actor';
import type { OutsideChange, OutsideMark } from '../../ports/outside';
import type { SnapshotRef } from '../../ports/snapshots';
import { ActorError, AnswerTooLarge } from '../../ports/actor';
import { StateDirLost, WorkspaceNotRecordable } from '../../ports/snapshots';
import { VerifyError } from '../../ports/verifier';
import { DEFAULT_MAX_ANSWER_BYTES } from '../../shared/config';
import { LastApplyMemory } from './states/lastApply';
import type { Witness } from '../../ports/verifier';
import type { EscalationReason, IterationRecord, RunState, StateRef, Verdict, WitnessSummary } from '../../ports/runState';
import { LoopEmitter } from './events';
import { checkAfterIteration, checkBudgets, escalate } from './bounds/termination';
import type { Stop } from './bounds/termination';
import { judgedFailing, listForNote } from '../judge/witnessCompare';
import type { Judgement } from '../judge/witnessCompare';
import { buildPrompt, contextCandidates, DEFAULT_PROMPT_OPTIONS, systemPrompt } from '../prompt/prompt';
import { isAbortError } from '../../base/abort';
import { RetryOutlastsBudget, withRetries } from './turns/retry';
import { checkReadable, isProtected, makePathPolicy } from '../edits/pathPolicy';
import type { PathPolicy } from '../edits/pathPolicy';
import { acceptAgentEdits } from '../edits/acceptAgentEdits';
import { applyModelAnswer, writtenRealPaths } from '../edits/applyModelAnswer';
import { type ApplyContext } from '../edits/applyContext';
import { configHash } from '../run/historyRecord';
import { checkCrossRun } from './bounds/crossRunGuard';
import { RunDeadline } from './bounds/deadline';
import { checkActorWithin } from './actorCheck';
import { applyGrant, tokenRoom } from './bounds/budget';
import type { Grant } from './bounds/budget';
import { KnownStates } from './states/knownStates';
import type { Revisit } from './states/knownStates';
import { judgeWithReruns } from './steps/flaky';
import { FocusNotFailingError, unknownFocus } from '../judge/focus';
import { markOutside, noteOutside, stopsTheRun } from './turns/outsideNote';
import { baselineProblem, newRunState, summarize, upgradeSavedState } from '../run/runStateFactory';
import { RunEnd } from './runEnd';
import { leftAloneSentence, restoreIfChanged } from './states/rollback';
import { moveTo, rollBackTo } from './states/moveTo';
import { runSignal } from './loopContext';
import type { AnyStop, EngineDeps, LoopContext } from './loopContext';
import { estimateTokens } from '../../base/estimateTokens';
import { agentBounds, AgentTimedOut, chargeAgentRequests } from './turns/agentBounds';
import { summarizeHypothesis } from '../edits/hypothesis';

export type { Grant } from './bounds/budget';
export type { EngineDeps } from './loopContext';

/** An escalation or finish decided inside an iteration, carried out by the loop. */
class StopLoop {
  /** inPlace: stop without touching a file (the workspace cannot be recorded, so no restore can be trusted). */
  constructor(readonly stop: AnyStop, readonly inPlace = false) {}
}

export class LoopEngine implements LoopContext {
  readonly events = new LoopEmitter();
  readonly lastApply = new LastApplyMemory();
  deadline: RunDeadline | null = null;
  private readonly policy: PathPolicy;
  private readonly known: KnownStates;
  private readonly end: RunEnd;
  /** The attempt under way, until it is recorded: what a stop in the middle of it must report. */
  private attempt: IterationRecord | null = null;

  constructor(readonly deps: EngineDeps) {
    this.end = new RunEnd(this);
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
    return this.begin(signal, true);
  }

  /**
   * Only the first test run of a loop driven from outside (`step`): the state to keep between checks, still
   * running unless the workspace is green or cannot be verified.
   */
  async baseline(signal: AbortSignal): Promise<RunState> {
    return this.begin(signal, false);
  }

  /**
   * One attempt of a loop whose edits come from outside (an agent that asks Greenloop to check its work): what
   * changed since the last check is judged like any attempt — kept, or rolled back — and the same guards decide
   * whether the loop goes on. Resolves with the state; `outcome` is still `running` when it may go on.
   */
  async step(state: RunState, signal: AbortSignal): Promise<RunState> {
    upgradeSavedState(state);
    this.startDeadline(signal, state.startedAt, state.limits.maxMinutes, state.elapsedBeforeMs);
    try {
      const before = checkBudgets(state, this.deps.clock.now());
      if (before) return await this.end.finish(state, before);
      const stop = await this.iterate(state);
      await this.deps.journal?.settled();
      return stop ? await this.end.finish(state, stop) : state;
    } catch (err) {
      return this.stopped(state, err, signal);
    } finally {
      this.stopDeadline();
    }
  }

  private async begin(signal: AbortSignal, loop: boolean): Promise<RunState> {
    const { deps } = this;
    const startedAt = deps.clock.now();
    const deadline = this.startDeadline(signal, startedAt, deps.config.maxMinutes, 0);
    try {
      this.events.emit({ type: 'phase', phase: 'snapshot' });
      const baselineSnap = await deps.snapshots.snapshot('baseline');
      // A model that cannot be reached is told now, in seconds: not after the tests and every retry.
      if (deps.actor.check) this.events.emit({ type: 'phase', phase: 'model-check', agent: deps.actor.editsWorkspace });
      const unusableModel = await checkActorWithin(deps.actor, { deadline, cancel: signal, clock: deps.clock, maxMinutes: deps.config.maxMinutes });
      if (unusableModel) return this.end.unverified(startedAt, baselineSnap, unusableModel.reason, unusableModel.text, undefined, { testsRan: false });
      let witness: Witness;
      try {
        this.events.emit({ type: 'phase', phase: 'baseline-tests' });
        witness = await deps.verifier.verify(deadline.signal);
      } catch (err) {
        if (deadline.expired) return this.end.unverified(startedAt, baselineSnap, 'budget-time', `The time budget (${deps.config.maxMinutes} min) ran out before the first test run finished; nothing was changed.`);
        if (isAbortError(err) || signal.aborted) throw err;
        const text = err instanceof VerifyError ? err.message : `The verifier failed before the loop started: ${(err as Error).message}`;
        return this.end.unverified(startedAt, baselineSnap, 'verify-error', text);
      }
      if (deadline.expired) return this.end.unverified(startedAt, baselineSnap, 'budget-time', `The time budget (${deps.config.maxMinutes} min) ran out before the first test run finished; nothing was changed.`);
      if (signal.aborted) throw abortNow();
      const unusable = baselineProblem(witness, deps.config.verifyTimeoutS);
      if (unusable) return this.end.unverified(startedAt, baselineSnap, 'verify-error', unusable, witness);

      const unfocused = unknownFocus(deps.config.focus, witness.failing);
      if (unfocused) throw new FocusNotFailingError(unfocused, witness.failing);

      const base: StateRef = { snapshot: baselineSnap.id, tree: baselineSnap.tree, witness: summarize(witness), iteration: 0 };
      const state = newRunState(deps, deps.runId ?? newRunId(startedAt), startedAt, base);
      const { snap: settledBase } = await this.settle(state, baselineSnap);
      moveTo(state, { snapshot: settledBase.id, tree: settledBase.tree, witness: base.witness });
      state.kept.push({ identity: await this.known.identityOf(state, baselineSnap.id), snapshot: baselineSnap.id, iteration: 0 });
      this.events.emit({ type: 'run-started', runId: state.runId, baselineFailing: base.witness.failing.length, baselineNotLoaded: base.witness.loadErrorFiles?.length ?? 0, baselineDiagnostics: base.witness.diagnostics.length, resumed: false, state });
      for (const w of base.witness.warnings ?? []) this.warn(state, w);
      this.warnEarlyStop(state, base.witness);
      if (witness.green) return await this.end.finish(state, { outcome: 'green', reason: null, text: 'Already green: nothing to fix.' });

      const guard = checkCrossRun(deps.pastRuns ?? [], configHash(state), judgedFailing(base.witness), deps.config.crossRunLimit);
      if (guard?.blocked && !deps.ignoreHistory) {
        state.crossRun = guard.text;
        return await this.end.finish(state, escalate('stagnation', guard.text));
      }
      if (guard) {
        state.crossRun = guard.blocked ? `${guard.text} You chose to run anyway.` : guard.text;
        this.warn(state, state.crossRun);
      }
      return loop ? await this.loop(state, signal) : state;
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
        return this.end.inPlace(state, err instanceof StopLoop ? err.stop : this.stopFor(err, signal));
      }
      this.events.emit({ type: 'run-started', runId: state.runId, baselineFailing: state.baseline.witness.failing.length, baselineNotLoaded: state.baseline.witness.loadErrorFiles?.length ?? 0, baselineDiagnostics: state.baseline.witness.diagnostics.length, resumed: true, state });
      if (state.current.witness.green) return await this.end.finish(state, { outcome: 'green', reason: null, text: 'The workspace is already green.' });
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
    // A run that never measured its start (the model or the tests could not be used) measures it now, whatever changed.
    const unmeasured = state.baseline.witness.unmeasured === true;
    if (snap.tree === state.current.tree && !unmeasured) return;
    const changed = await this.deps.snapshots.changedBetween(state.current.snapshot, snap.id);
    this.events.emit({ type: 'phase', phase: 'resume-tests' });
    const witness = summarize(await this.verifyOrThrow(runSignal(this)));
    const ref: StateRef = { snapshot: snap.id, tree: snap.tree, witness, iteration: state.iterations.length };
    const { snap: settled } = await this.settle(state, snap);
    moveTo(state, { snapshot: settled.id, tree: settled.tree, witness });
    state.floor = ref;
    state.best = ref;
    if (unmeasured) state.baseline = ref;
    state.kept.push({ identity: await this.known.identityOf(state, snap.id), snapshot: snap.id, iteration: ref.iteration });
    const shown = changed.length ? ` (${changed.slice(0, 3).join(', ')}${changed.length > 3 ? ` and ${changed.length - 3} more` : ''})` : '';
    state.warnings.push(unmeasured
      ? `Resumed: the tests ran for the first time in this run: ${witness.failing.length} failing.`
      : `Resumed from the workspace as you left it${shown}: ${witness.failing.length} failing; the run will never leave it worse than that, and never undo your edits.`);
  }

  private async loop(state: RunState, signal: AbortSignal): Promise<RunState> {
    try {
      for (;;) {
        const before = checkBudgets(state, this.deps.clock.now());
        if (before) return await this.end.finish(state, before);
        const stop = await this.iterate(state);
        // The attempt is kept or undone: nothing is in flight any more.
        await this.deps.journal?.settled();
        if (stop) return await this.end.finish(state, stop);
      }
    } catch (err) {
      return this.stopped(state, err, signal);
    }
  }

  /** How the loop ends when an attempt threw: a decided stop, the state folder gone, the clock, the person, a bug. */
  private async stopped(state: RunState, err: unknown, signal: AbortSignal): Promise<RunState> {
    if (err instanceof StateDirLost) return await this.end.afterStateDirLost(state, err, this.attempt);
    const stop = err instanceof WorkspaceNotRecordable ? this.unrecordableStop(state, err) : err;
    if (stop instanceof StopLoop) return stop.inPlace ? this.end.inPlace(state, stop.stop) : this.end.finish(state, stop.stop);
    return this.end.finish(state, this.stopFor(err, signal));
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
    this.events.emit({ type: 'iteration-started', n, max: state.limits.maxIterations, agent: deps.actor.editsWorkspace });
    const settled = state.current;
    this.attempt = null;
    // From outside, the edits since the last check are the attempt itself, not someone else's. A model's answer is
    // checked after its call (below), which covers this moment too: one scan of the workspace fewer per attempt.
    if (!deps.actor.external && deps.actor.editsWorkspace) await this.guardUserEdits(state);

    // Test output, file contents and the model's own earlier words can all carry a secret: none of it reaches the model.
    // An outside agent made its edits before it asked for the check: no prompt is built for it (nor its files read).
    const prompt = deps.actor.external ? '' : deps.redactor.text(buildPrompt(state, t0, {
      ...DEFAULT_PROMPT_OPTIONS, isProtected: (rel) => isProtected(this.policy, rel), allowTestEdits: deps.config.allowTestEdits,
      editsWorkspace: deps.actor.editsWorkspace, policy: this.policy, unrecorded: await this.unrecordedContext(state),
    }));
    const system = deps.actor.external ? '' : deps.redactor.text(systemPrompt(deps.config.allowTestEdits, deps.actor.editsWorkspace));
    const room = tokenRoom(state, estimateTokens(system) + estimateTokens(prompt));
    if (!room.ok) return escalate('budget-tokens', room.text);
    const outside = await markOutside(this, state);
    const record: IterationRecord = this.attempt = {
      n, startedAt: t0, verdict: 'invalid-proposal', failing: settled.witness.failing, loadErrorFiles: settled.witness.loadErrorFiles ?? [], diagnostics: settled.witness.diagnostics.length,
      rolledBack: false, treeHash: null, proposalHash: null, files: [], tokens: { prompt: 0, completion: 0 },
      durationMs: 0, note: '', hypothesis: '', beforeSnapshot: settled.snapshot, afterSnapshot: null, witness: null, requests: 0,
    };
    const response = await this.callActor(state, record, prompt, system, room.maxOutputTokens, outside);
    record.tokens = { prompt: response.usage.prompt, completion: response.usage.completion };
    state.llmCalls += 1;
    addTokens(state.tokens, response.usage);
    if (response instanceof AnswerTooLarge) return this.refuseTooLarge(state, record, response);
    if (response instanceof AgentTimedOut) {
      record.note = response.message;
      state.feedback = `${response.message} Make a smaller change that finishes in time.`;
      return this.record(state, record, 'invalid-proposal', t0);
    }
    const limit = room.maxOutputTokens;
    if (limit !== undefined && !response.usage.estimated && response.usage.completion > limit * 1.1 + 16) {
      this.warn(state, `The model server reported ${response.usage.completion.toLocaleString('en-US')} completion tokens for an answer limited to ${limit.toLocaleString('en-US')} (max_tokens): it does not honour the limit, so one answer can overshoot the token budget.`);
    }
    // A model call can take minutes; a person may have typed meanwhile. (An agent CLI's own edits are checked below.)
    if (response.kind === 'text') await this.guardUserEdits(state);
    const changedOutside = await outside?.check();
    if (stopsTheRun(changedOutside)) return this.stopForOutside(state, record, changedOutside!, t0);
    if (changedOutside?.length) this.warn(state, noteOutside(state, record, changedOutside, []));
    if (response.kind === 'workspace-edited' && response.agent?.lastMessage) record.hypothesis = summarizeHypothesis(response.agent.lastMessage);
    // An agent's exit code is information: only the same failure twice with nothing changed (it cannot work) stops the run.
    if (response.kind === 'workspace-edited' && response.failure && (await deps.snapshots.changedSince(settled.snapshot)).length === 0) {
      const seen = state.agentFailures ?? (state.agentFailures = []);
      if (seen.includes(response.failure.signature)) {
        await restoreIfChanged(this.deps, state, settled.snapshot);
        record.note = `${response.failure.text}\n(the same failure as an earlier attempt)`;
        this.record(state, record, 'invalid-proposal', t0);
        return escalate('actor-error', `The agent failed the same way twice: ${response.failure.text}`);
      }
      seen.push(response.failure.signature);
    }
    this.lastApply.forget();
    const ctx: ApplyContext = {
      cwd: deps.cwd, policy: this.policy, snapshots: deps.snapshots, journal: deps.journal, memory: this.lastApply,
      intent: { attempt: n, returnTo: settled.snapshot, artifacts: state.artifacts }, signal: runSignal(this),
    };
    const applied = response.kind === 'text' ? await applyModelAnswer(ctx, state, record, response.text) : await acceptAgentEdits(ctx, state, record);
    // The agent's failure is told, never judged: what it changed goes to the tests all the same.
    const agentNote = response.kind === 'workspace-edited' && response.failure ? response.failure.text : '';
    if (agentNote && !applied) record.note = `${record.note} ${agentNote}`;
    this.events.emit({ type: 'proposal-received', n, tokens: record.tokens, files: record.files });
    if (!applied) return this.record(state, record, 'invalid-proposal', t0);

    state.inFlight = record.files;
    this.events.emit({ type: 'applied', n, files: record.files });
    // An agent's edits were recorded when they were accepted; a model's answer was applied right after the check that
    // found nothing else changed: only its files need a look.
    const after = response.kind === 'workspace-edited' && record.afterSnapshot && record.treeHash
      ? { id: record.afterSnapshot, tree: record.treeHash }
      : await deps.snapshots.snapshot(`iteration-${n}`, response.kind === 'text' ? writtenRealPaths(this.policy, record.files) : undefined);
    record.treeHash = after.tree;
    record.afterSnapshot = after.id;
    const revisit = this.known.find(state, await this.known.identityOf(state, after.id));
    if (revisit) return this.revisited(state, record, revisit, t0);

    this.events.emit({ type: 'verifying', n });
    const judged = await judgeWithReruns(this, state, record, summarize(await this.verifyOrStop(state, record)));
    const { j, witness } = judged;
    record.witness = witness;
    record.failing = witness.failing;
    record.loadErrorFiles = witness.loadErrorFiles ?? [];
    record.diagnostics = witness.diagnostics.length;
    record.ran = witness.ranCount ?? (witness.ran ? witness.ran.length : null);

    record.note = agentNote ? `${j.note} (${agentNote})` : j.note;
    record.missing = j.missing;
    this.warnEarlyStop(state, witness);
    const settledAfter = j.verdict === 'regression' ? null : await this.settle(state, after, record.files);
    const verdict: Verdict = settledAfter?.tampered.length ? 'regression' : j.verdict;
    if (!settledAfter || settledAfter.tampered.length) {
      // Test files the edited code rewrote while the tests ran are the loop's doing: they go back too.
      if (settledAfter?.tampered.length) state.inFlight = [...(state.inFlight ?? []), ...settledAfter.tampered];
      const leftAlone = await rollBackTo(this.deps, state, state.best);
      record.rolledBack = true;
      state.rejected.push({ identity: await this.known.identityOf(state, after.id), snapshot: after.id, iteration: n });
      if (settledAfter?.tampered.length && settledAfter.kept) {
        const files = listForNote(settledAfter.tampered);
        record.testsWrote = { snapshot: settledAfter.kept.id, paths: settledAfter.tampered };
        const show = deps.snapshots.showCommand(settledAfter.kept.id, settledAfter.tampered[0]!);
        record.note = `running the tests after this edit rewrote protected test files (${files}): the code under test wrote into its own tests; rolled back to the best state. What was written is kept (if you saved one of these files yourself meanwhile, your version is there): ${show}`;
        state.feedback = `after your edit, running the tests changed ${files}: code must never write into the tests; it was rolled back.`;
      } else {
        state.feedback = regressionFeedback(j);
        record.note = `${record.note}; rolled back to the best state`;
      }
      if (leftAlone.length) {
        this.record(state, record, verdict, t0);
        return escalate('user-edit', leftAloneSentence(leftAlone));
      }
    } else {
      // Verification may write files (reports, caches); the settled snapshot makes them part of "before" for the next guard.
      const settledSnap = settledAfter.snap;
      if (settledAfter.foreign.length) {
        // Someone else wrote while the tests ran: keep everything as it is and stop before anything overwrites it.
        moveTo(state, { snapshot: settledSnap.id, tree: settledSnap.tree, witness });
        this.record(state, record, verdict, t0);
        return escalate('user-edit', foreignSentence(settledAfter.foreign));
      }
      moveTo(state, { snapshot: settledSnap.id, tree: settledSnap.tree, witness });
      state.kept.push({ identity: await this.known.identityOf(state, after.id), snapshot: after.id, iteration: n });
      if (j.verdict === 'progress' || j.verdict === 'green') {
        state.best = { snapshot: after.id, tree: after.tree, witness, iteration: n };
      }
      state.feedback = j.verdict === 'no-progress' ? `no test changed state (${j.note}); the edit is kept but did not help.` : j.note;
    }
    if (record.flaky?.length) state.feedback += ` (${listForNote(record.flaky)} failed and then passed on the same files: flaky, not counted either way.)`;
    if (record.reverted?.length) {
      // Said every time: the agent must know which of its edits never reached the tests, and why.
      const put = `Greenloop put back your changes to ${listForNote(record.reverted.map((r) => r.path))} before testing the rest: ${record.reverted.map((r) => r.reason).join(' ')}`;
      record.note = `${record.note}; ${put}`;
      state.feedback = `${state.feedback.replace(/[.\s]*$/, '')}. ${put}`;
    }
    return this.record(state, record, verdict, t0);
  }

  /** The edit led to a state already verified: its witness is known, the tests do not run again. */
  private async revisited(state: RunState, record: IterationRecord, revisit: NonNullable<Revisit>, t0: number): Promise<Stop | null> {
    const { earlier } = revisit;
    const when = earlier.iteration === 0 ? 'the state the run started from' : `the state after attempt ${earlier.iteration}`;
    const known = earlier.iteration === 0 ? state.baseline.witness : state.iterations[earlier.iteration - 1]?.witness ?? state.floor.witness;
    record.witness = known;
    record.failing = known.failing;
    record.loadErrorFiles = known.loadErrorFiles ?? [];
    record.diagnostics = known.diagnostics.length;
    if (revisit.kind === 'kept') {
      // Back in a state the loop kept: leave the workspace there (it is a state it was in) and stop.
      const { snap: settledAfter } = await this.settle(state, { id: record.afterSnapshot!, tree: record.treeHash! }, record.files);
      moveTo(state, { snapshot: settledAfter.id, tree: settledAfter.tree, witness: known });
      record.note = `returned the workspace to ${when} (known, so not tested again)`;
      this.record(state, record, 'no-progress', t0);
      return escalate('cycle', `Attempt ${record.n} returned the workspace to ${when}; the model is going in circles.`);
    }
    const leftAlone = await rollBackTo(this.deps, state, state.best);
    record.rolledBack = true;
    record.note = `made the same change as attempt ${earlier.iteration}, which was rolled back as a regression (known, so not tested again); rolled back`;
    this.record(state, record, 'regression', t0);
    if (leftAlone.length) return escalate('user-edit', leftAloneSentence(leftAlone));
    return escalate('repeated-proposal', `Attempt ${record.n} made the same change as attempt ${earlier.iteration}, which had broken tests and was rolled back.`);
  }

  /**
   * The workspace after the tests ran. What changed while only the tests ran was written by them: reports and caches,
   * not a state of the code — unless the loop itself edits that file (a source the tests rewrite stays part of the
   * state), or it is a protected test file the tests do not always write: then the code under test wrote into its
   * own tests, which is `tampered` (the caller rolls the edit back).
   */
  private async settle(state: RunState, after: SnapshotRef, edited: readonly string[] = []): Promise<{ snap: SnapshotRef; tampered: string[]; foreign: string[]; kept?: SnapshotRef }> {
    const changed = await this.deps.snapshots.changedSince(after.id);
    if (changed.length === 0) return { snap: after, tampered: [], foreign: [] };
    const isBaseline = state.iterations.length === 0 && edited.length === 0;
    const tampered = isBaseline ? [] : changed.filter((p) => isProtected(this.policy, p) && !state.artifacts.includes(p));
    // Whoever wrote them (the code under test, or a person saving meanwhile: nothing tells the two apart), what was
    // written is kept in a snapshot before the rollback puts the files back.
    if (tampered.length) return { snap: after, tampered, foreign: [], kept: await this.deps.snapshots.snapshot('tests-wrote', []) };
    const touched = new Set([...edited, ...state.iterations.flatMap((it) => it.files)]);
    // The test command's own outputs are learned from the first run; a path first written later, by no edit of the
    // loop, may be a person's save: it is not taken as the tests' (see foreign).
    const foreign = isBaseline ? [] : changed.filter((p) => !touched.has(p) && !state.artifacts.includes(p));
    if (isBaseline) await this.known.addArtifacts(state, changed.filter((p) => !touched.has(p)));
    // The look just taken is the settled state: recorded as it saw it, without a second scan.
    return { snap: await this.deps.snapshots.snapshot('settled', []), tampered: [], foreign };
  }



  private record(state: RunState, record: IterationRecord, verdict: Verdict, t0: number): Stop | null {
    state.inFlight = undefined;
    record.verdict = verdict;
    record.durationMs = this.deps.clock.now() - t0;
    if (verdict === 'invalid-proposal') state.feedback = record.note;
    state.consecutiveNoProgress = verdict === 'progress' || verdict === 'green' ? 0 : state.consecutiveNoProgress + 1;
    if (record.proposalHash) state.seenProposals.push(record.proposalHash);
    state.iterations.push(record);
    this.events.emit({ type: 'verified', n: record.n, verdict, failing: record.failing.length, notLoaded: record.loadErrorFiles?.length ?? 0, diagnostics: record.diagnostics, rolledBack: record.rolledBack, note: record.note, iteration: record });
    return checkAfterIteration(state, this.deps.clock.now());
  }

  /** An answer past the size cap was not read: an invalid proposal, told to the model in the next prompt. */
  private refuseTooLarge(state: RunState, record: IterationRecord, tooLarge: AnswerTooLarge): Stop | null {
    record.note = tooLarge.message;
    this.events.emit({ type: 'proposal-received', n: record.n, tokens: record.tokens, files: [] });
    return this.record(state, record, 'invalid-proposal', record.startedAt);
  }

  private async callActor(state: RunState, record: IterationRecord, prompt: string, system: string, maxOutputTokens: number | undefined, outside: OutsideMark | null): Promise<ActorResponse | AnswerTooLarge | AgentTimedOut> {
    const signal = runSignal(this);
    const { n } = record;
    const maxAnswerBytes = this.deps.config.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    const agent = this.deps.actor.editsWorkspace;
    if (agent) {
      // An agent writes where it likes: a kill now leaves its half-done changes, which the next start must name.
      await this.deps.journal?.intend({ kind: 'agent', attempt: n, returnTo: state.current.snapshot, paths: [], artifacts: state.artifacts });
    }
    const ask = () => {
      state.requests += 1;
      record.requests = (record.requests ?? 0) + 1;
      return this.deps.actor.propose({ prompt, system, iteration: n, cwd: this.deps.cwd, signal, maxOutputTokens, maxAnswerBytes, ...agentBounds(state, this.deadline) });
    };
    try {
      // An agent CLI retries its own model calls; Greenloop never starts it again on a half-edited workspace.
      const response = agent ? await ask() : await withRetries(ask, {
        ...this.deps.retry,
        clock: this.deps.clock,
        signal,
        deadline: this.deadline ?? undefined,
        onRetry: (err, attempt, delayMs) => this.events.emit({ type: 'retrying', n, attempt, delayMs, message: err.message }),
      });
      if (response.kind === 'workspace-edited') chargeAgentRequests(state, record, response.agent);
      // Any actor is held to the cap, also one that does not stop reading at it itself.
      if (response.kind === 'text' && Buffer.byteLength(response.text) > maxAnswerBytes) return new AnswerTooLarge(maxAnswerBytes, response.usage);
      return response;
    } catch (err) {
      if (err instanceof AnswerTooLarge) return err;
      // An agent may have half-edited the workspace before failing or being stopped: those are its writes, undone
      // before anything else happens. A model writes nothing itself, so whatever changed during its call is a person's.
      const agentStopped = agent && (err instanceof ActorError || err instanceof RetryOutlastsBudget || isAbortError(err));
      if (agentStopped) await restoreIfChanged(this.deps, state, state.current.snapshot);
      if (err instanceof ActorError && err.spent) chargeAgentRequests(state, record, err.spent.agent);
      // However the agent stopped, what it changed outside the snapshots is put back where it can be, and named.
      const changed = await outside?.check();
      if (stopsTheRun(changed) && err instanceof ActorError) throw new StopLoop(await this.stopForOutside(state, record, changed!, record.startedAt));
      // Stopped by the clock or the person, or failed with only warnings outside: that stays the reason, and what
      // changed outside is told beside it.
      if (changed?.length) this.warn(state, noteOutside(state, record, changed, []));
      if (err instanceof ActorError && agent && err.category === 'timeout') return new AgentTimedOut(err.message, err.spent?.usage ?? { prompt: 0, completion: 0, estimated: true });
      if (err instanceof ActorError) {
        if (agent) {
          // The attempt is in the report with what it cost, though it ended in an error.
          const usage = err.spent?.usage ?? { prompt: 0, completion: 0 };
          record.tokens = { prompt: usage.prompt, completion: usage.completion };
          state.llmCalls += 1;
          addTokens(state.tokens, usage);
          record.note = err.message;
          this.record(state, record, 'invalid-proposal', record.startedAt);
        }
        throw new StopLoop({ outcome: 'escalated', reason: err.budget ?? 'actor-error', text: err.message });
      }
      throw err;
    }
  }

  /** The agent changed what no snapshot records: that was put back where it could be; its attempt is undone and the run stops. */
  private async stopForOutside(state: RunState, record: IterationRecord, changes: OutsideChange[], t0: number): Promise<Stop> {
    const rolledBack = await restoreIfChanged(this.deps, state, record.beforeSnapshot);
    record.files = rolledBack;
    record.rolledBack = rolledBack.length > 0;
    const text = noteOutside(state, record, changes, rolledBack);
    this.record(state, record, 'invalid-proposal', t0);
    return escalate('actor-error', text);
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
    const signal = runSignal(this);
    let witness: Witness;
    try {
      witness = await this.deps.verifier.verify(signal);
    } catch (err) {
      if (isAbortError(err) || signal.aborted) throw err;
      record.note = `The verifier could not run: ${(err as Error).message}`;
      await rollBackTo(this.deps, state, state.best);
      record.rolledBack = true;
      this.pushFailedRecord(state, record);
      throw new StopLoop({ outcome: 'escalated', reason: 'verify-error', text: record.note });
    }
    if (signal.aborted) throw abortNow();
    if (witness.timedOut) {
      record.note = `The test command did not finish within ${this.deps.config.verifyTimeoutS} s after this edit; it was rolled back.`;
      await rollBackTo(this.deps, state, state.best);
      record.rolledBack = true;
      this.pushFailedRecord(state, record);
      throw new StopLoop({ outcome: 'escalated', reason: 'verify-error', text: record.note });
    }
    return witness;
  }

  private pushFailedRecord(state: RunState, record: IterationRecord): void {
    state.inFlight = undefined;
    record.verdict = 'no-progress';
    record.durationMs = this.deps.clock.now() - record.startedAt;
    state.iterations.push(record);
    moveTo(state, state.best);
  }

  /** Someone else changed files the loop owns since it last looked: stop rather than overwrite their work. */
  private async guardUserEdits(state: RunState): Promise<void> {
    const changed = await this.deps.snapshots.changedSince(state.current.snapshot);
    if (changed.length === 0) return;
    const shown = changed.slice(0, 3).join(', ') + (changed.length > 3 ? ` and ${changed.length - 3} more` : '');
    throw new StopLoop({ outcome: 'escalated', reason: 'user-edit', text: `Files changed outside the loop during the run (${shown}); stopped so nothing of yours is overwritten.` });
  }

  /**
   * The workspace could not be recorded (a file git refuses, a broken store) in the middle of an attempt: stop right
   * there, say what is on disk, and touch nothing more, since no restore could be trusted.
   */
  private unrecordableStop(state: RunState, err: Error): StopLoop {
    const record = this.attempt;
    let onDisk = '';
    if (record && !state.iterations.includes(record)) {
      onDisk = record.files.length
        ? ` The edit of attempt ${record.n} (${record.files.slice(0, 3).join(', ')}${record.files.length > 3 ? ', …' : ''}) is still on disk;`
        : this.deps.actor.editsWorkspace ? ` What the agent changed in attempt ${record.n} is still on disk;` : '';
      record.note = `Greenloop could not record the workspace: ${err.message}`;
      record.durationMs = this.deps.clock.now() - record.startedAt;
      state.iterations.push(record);
    }
    state.inFlight = undefined;
    const text = `Greenloop could not record the workspace: ${err.message}${onDisk} nothing more was changed.`;
    return new StopLoop({ outcome: 'escalated', reason: this.deps.actor.editsWorkspace ? 'actor-error' : 'user-edit', text }, true);
  }

  /** Which of the files the prompt could show git ignores (asked once per attempt, of the real paths). */
  private async unrecordedContext(state: RunState): Promise<Set<string>> {
    const real = contextCandidates(state, this.policy).map((rel) => checkReadable(this.policy, rel)).flatMap((c) => (c.ok ? [c.realRel] : []));
    return new Set(await this.deps.snapshots.unrecorded(real));
  }

  /** Once a run: the person is told the runner stops at the first failure, and which flag shows them all. */
  private warnEarlyStop(state: RunState, witness: WitnessSummary): void {
    if (!witness.stoppedEarly || state.warnings.some((w) => w.startsWith('The test run stopped early'))) return;
    this.warn(state, `The test run stopped early: ${witness.stoppedEarly}`);
  }

  warn(state: RunState, message: string): void {
    if (!state.warnings.includes(message)) state.warnings.push(message);
    this.events.emit({ type: 'warning', message });
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


}




function foreignSentence(paths: readonly string[]): string {
  const shown = `${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ` and ${paths.length - 3} more` : ''}`;
  return `Files changed while the tests ran that the loop did not write (${shown}); stopped and left everything as it is, so nothing of yours is overwritten. If your test command writes them, add them to the snapshot excludes (greenloop.snapshotExcludes).`;
}

function regressionFeedback(j: Judgement): string {
  if (j.missing.length) return `after your edit ${j.missing.length} test${j.missing.length === 1 ? '' : 's'} that ran before did not run at all (${listForNote(j.missing)}): tests that disappear count as broken, never as fixed; it was rolled back.`;
  if (j.fewerRan) return `after your edit fewer tests ran (${j.fewerRan[0]} before, ${j.fewerRan[1]} now): tests that disappear count as broken, never as fixed; it was rolled back.`;
  return `your edit broke ${j.newlyFailing.slice(0, 5).map((s) => `\`${s}\``).join(', ')}; it was rolled back. Keep what passes passing.`;
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
