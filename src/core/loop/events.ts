// Plain typed events out of the engine; hosts (CLI, VS Code) turn them into lines, trees and status bars.
import type { CandidateRecord, CandidateVerdict, EscalationReason, IterationRecord, Outcome, RunState, Verdict } from '../../ports/runState';
import type { FixerCommand } from '../../ports/fixers';
import type { CoverageNote } from '../../ports/codeContext';

export type LoopEvent =
  /** `state` is the live run state: hosts may read it (never write it) while the run goes on. */
  /** `unverified`: the first test run failed (hung, could not run, ran no test); the run ends right after. */
  /** `baselineNotLoaded`: test files that did not load, counted apart from the failing tests. */
  | { type: 'run-started'; runId: string; baselineFailing: number; baselineNotLoaded?: number; baselineDiagnostics: number; resumed: boolean; unverified?: boolean; stoppedFor?: EscalationReason; /** Stopped before the first test run began (the model check). */ beforeTests?: boolean; state: RunState }
  /** A step outside any attempt, said as it begins, so a host can tell what is running before the first result. */
  | { type: 'phase'; phase: RunPhase; /** The actor is an agent CLI. */ agent?: boolean }
  | { type: 'iteration-started'; n: number; max: number; /** The actor is an agent CLI (it edits the workspace itself). */ agent?: boolean; /** Attempt 0: the project's own fixers, no model. */ autofix?: boolean }
  | { type: 'proposal-received'; n: number; tokens: { prompt: number; completion: number }; files: string[]; /** The fixer commands of an autofix attempt, as they ran. */ commands?: FixerCommand[] }
  | { type: 'applied'; n: number; files: string[] }
  /** `scope`: only the `tests` failing in the best state run, or the whole suite (absent: the whole suite). */
  /** `confirming`: the tests that flipped to passing run again before a green is believed. */
  | { type: 'verifying'; n: number; scope?: 'targeted' | 'full'; tests?: number; confirming?: boolean }
  | { type: 'verified'; n: number; verdict: Verdict; failing: number; notLoaded?: number; diagnostics: number; rolledBack: boolean; note: string; iteration: IterationRecord }
  /** One of an attempt's candidates tried (`--candidates`): what its test run (or refusal) said. */
  | { type: 'candidate-tried'; n: number; k: number; of: number; verdict: CandidateVerdict; files: string[]; note: string }
  /** All of them tried: the one kept goes on to the whole suite. */
  | { type: 'candidates-judged'; n: number; chosen: number; candidates: CandidateRecord[] }
  | { type: 'retrying'; n: number; attempt: number; delayMs: number; message: string }
  | { type: 'warning'; message: string }
  /** What coverage of the baseline's failing tests gave the prompt, or why nothing (the report's `coverage`). */
  | { type: 'coverage'; note: CoverageNote }
  | { type: 'escalated'; reason: EscalationReason; message: string }
  | { type: 'finished'; outcome: Outcome; state: RunState };

/**
 * snapshot: the workspace is saved before anything runs; model-check: the actor's own check that it can answer;
 * baseline-tests: the first test run, on the unchanged workspace; resume-tests: the workspace as a person left a
 * stopped run; final-tests: the state a run ends at, tested again because a restore may not have reached it;
 * coverage-tests: the baseline's failing tests on their own, with coverage and without (where they went).
 */
export type RunPhase = 'snapshot' | 'model-check' | 'baseline-tests' | 'resume-tests' | 'final-tests' | 'coverage-tests';

export type LoopListener = (event: LoopEvent) => void;

/** Listener failures must never break the loop: a broken status bar is not a reason to stop fixing code. */
export class LoopEmitter {
  private readonly listeners = new Set<LoopListener>();

  on(listener: LoopListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: LoopEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        /* see class comment */
      }
    }
  }
}
