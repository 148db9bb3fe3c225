// What the status bar shows about a run, folded from the engine's events (the engine shares its state only
// when it finishes). Plain data: no vscode, so it is tested directly.
import type { LoopEvent, RunPhase } from '../../core/loop/events';
import type { EscalationReason, Outcome, RunState } from '../../ports/runState';
import type { HistoryRecord } from '../../ports/history';

export interface RunTally {
  startedAt: number;
  iteration: number;
  maxIterations: number;
  maxTokens: number;
  maxMinutes: number;
  tokens: number;
  /** Elapsed time of earlier sessions of a resumed run. */
  elapsedBeforeMs: number;
  failing: number | null;
  /** Test files that did not load, counted apart from the failing tests. */
  notLoaded: number;
  diagnostics: number;
  /** Failing count at the baseline, then after each iteration. */
  trend: number[];
  phase: 'verifying-baseline' | 'asking' | 'verifying' | 'done';
  /** What runs before the first count (snapshot, model check, first tests): the status bar says it, not "checking tests". */
  startPhase: RunPhase | null;
  outcome: Outcome;
  reason: EscalationReason | null;
  reasonText: string;
  finishedAt: number | null;
  paused: boolean;
  /** Which saved state the workspace is at once the run ended (best, baseline, last), as the run's state says. */
  workspaceAt: string | null;
  /** The actor is an agent CLI, as the engine said when it checked or asked it. */
  agent: boolean;
}

export function newTally(startedAt: number, limits: { maxIterations: number; maxTokens: number; maxMinutes: number }): RunTally {
  return {
    startedAt, iteration: 0, ...limits, tokens: 0, elapsedBeforeMs: 0, failing: null, notLoaded: 0, diagnostics: 0, trend: [],
    phase: 'verifying-baseline', startPhase: null, outcome: 'running', reason: null, reasonText: '', finishedAt: null, paused: false,
    workspaceAt: null, agent: false,
  };
}

export function foldEvent(t: RunTally, e: LoopEvent, now: number): void {
  switch (e.type) {
    case 'run-started': {
      // A resumed run starts from where the last one left the workspace, not from the baseline.
      const start = e.state.current.witness;
      t.failing = e.unverified ? null : start.failing.length;
      t.notLoaded = e.unverified ? 0 : start.loadErrorFiles?.length ?? 0;
      t.diagnostics = start.diagnostics.length;
      t.maxIterations = e.state.limits.maxIterations;
      t.maxTokens = e.state.limits.maxTokens;
      t.maxMinutes = e.state.limits.maxMinutes;
      if (t.trend.length === 0 && !e.unverified) t.trend.push(e.baselineFailing + e.baselineDiagnostics);
      t.outcome = 'running';
      t.reason = null;
      t.reasonText = '';
      t.finishedAt = null;
      t.workspaceAt = null;
      break;
    }
    case 'phase':
      t.startPhase = e.phase;
      if (e.phase === 'model-check') t.agent = e.agent === true;
      break;
    case 'iteration-started':
      t.agent = e.agent === true;
      t.iteration = e.n;
      t.maxIterations = e.max;
      t.phase = 'asking';
      break;
    case 'proposal-received':
      t.tokens += e.tokens.prompt + e.tokens.completion;
      break;
    case 'verifying':
      t.phase = 'verifying';
      break;
    case 'verified':
      t.failing = e.failing;
      t.notLoaded = e.notLoaded ?? 0;
      t.diagnostics = e.diagnostics;
      t.trend.push(e.failing + e.diagnostics);
      break;
    case 'escalated':
      t.reason = e.reason;
      t.reasonText = e.message;
      break;
    case 'finished':
      t.finishedAt = now;
      settleTally(t, e.state);
      t.outcome = e.outcome;
      break;
    default:
      break;
  }
}

/**
 * A finished run's tally read from its state, the one source of truth: at the end of the loop, and again after
 * Roll back / Accept change where the workspace is, so the status bar says what the panel and the tree say.
 */
export function settleTally(t: RunTally, s: RunState): void {
  t.phase = 'done';
  t.outcome = s.outcome;
  t.reason = s.reason;
  t.reasonText = s.reasonText;
  t.finishedAt ??= s.finishedAt ?? null;
  t.tokens = s.tokens.prompt + s.tokens.completion;
  // The project's fixers (attempt 0) are no attempt of the budget.
  t.iteration = s.iterations.filter((it) => it.actor !== 'autofix').length;
  // A count the tests never gave is no count: "0 failing" would read as green.
  t.failing = s.current.witness.unmeasured ? null : s.current.witness.failing.length;
  t.notLoaded = s.current.witness.loadErrorFiles?.length ?? 0;
  t.diagnostics = s.current.witness.diagnostics.length;
  t.maxIterations = s.limits.maxIterations;
  t.maxTokens = s.limits.maxTokens;
  t.maxMinutes = s.limits.maxMinutes;
  t.paused = false;
  t.workspaceAt = s.finalState;
}

/**
 * A saved run's figures as its history line gives them. A history line keeps no budgets: they read 0 (not known);
 * the status bar only ever shows this window's live run, whose budgets come from its state.
 */
export function tallyOfRecord(r: HistoryRecord): RunTally {
  const t = newTally(r.startedAt, { maxIterations: 0, maxTokens: 0, maxMinutes: 0 });
  t.phase = r.outcome === 'running' ? t.phase : 'done';
  t.outcome = r.outcome as Outcome;
  t.reason = r.reason as EscalationReason | null;
  t.reasonText = r.reasonText;
  t.finishedAt = r.finishedAt;
  t.tokens = r.tokens.prompt + r.tokens.completion;
  t.iteration = r.iterations.filter((it) => it.actor !== 'autofix').length;
  // A count the tests never gave is no count: "0 failing" would read as green.
  t.failing = r.unmeasured ? null : r.finalFailing.length;
  t.notLoaded = r.finalLoadErrorFiles?.length ?? 0;
  t.diagnostics = r.finalDiagnostics;
  const start = r.unmeasured ? [] : [r.baselineFailing.length + r.baselineDiagnostics];
  t.trend = [...start, ...r.iterations.map((i) => i.failing.length + i.diagnostics)];
  t.workspaceAt = r.finalState;
  t.agent = r.iterations.some((i) => i.agent !== undefined);
  return t;
}
