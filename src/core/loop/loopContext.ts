// What the engine's parts share while a run goes on: its ports, its events, its warnings, its deadline, its path
// policy and the states it has been in. Steps and turns see the engine only through this.
import type { LoopConfig } from '../../shared/config';
import type { LoopEmitter } from './events';
import type { HistoryRecord } from '../../ports/history';
import type { Actor } from '../../ports/actor';
import type { Clock } from '../../ports/clock';
import type { OutsideWatch } from '../../ports/outside';
import type { SnapshotStore, WorkspaceCopies } from '../../ports/snapshots';
import type { Verifier } from '../../ports/verifier';
import type { Fixers } from '../../ports/fixers';
import type { RetryOptions } from './turns/retry';
import type { WriteJournal } from '../../ports/journal';
import type { RunDeadline } from './bounds/deadline';
import type { EscalationReason, Outcome, RunState } from '../../ports/runState';
import type { Stop } from './bounds/termination';
import type { Redactor } from '../../base/redact';
import type { LastApplyMemory } from './states/lastApply';
import type { KnownStates } from './states/knownStates';
import type { PathPolicy } from '../edits/pathPolicy';
import type { CodeReader } from '../../ports/codeContext';

export interface EngineDeps {
  cwd: string;
  actor: Actor;
  verifier: Verifier;
  snapshots: SnapshotStore;
  /** Copies of the workspace's states outside it (several agents per attempt, candidates judged side by side); none: neither. */
  copies?: WorkspaceCopies;
  clock: Clock;
  config: LoopConfig;
  /** Masks secrets in every prompt before it leaves for the model (built once per run from the key and the env). */
  redactor: Redactor;
  runId?: string;
  /** Earlier runs on this workspace, for the cross-run guard (refuse to repeat a failing approach). */
  pastRuns?: HistoryRecord[];
  /** The person chose to run even though the cross-run guard would stop it. */
  ignoreHistory?: boolean;
  /** Where each workspace write is announced before it happens, for recovery after a kill (none in unit tests). */
  journal?: WriteJournal;
  /** What an agent CLI must leave alone outside the snapshotted tree (its .git, ignored files, dotfiles); none: not watched. */
  outside?: OutsideWatch;
  /** The project's own fixers of its checkers (`eslint --fix`), run as attempt 0; none: no autofix. */
  fixers?: Fixers;
  /** Retry timing for transient actor errors (tests shorten it). */
  retry?: Pick<RetryOptions, 'baseMs' | 'maxMs' | 'retries'>;
  /** Cuts files into functions and outlines them for the prompt (src/context); none: windows of lines, no outlines. */
  codeReader?: CodeReader;
}

export type AnyStop = Stop | { outcome: Outcome; reason: EscalationReason | null; text: string };

export interface LoopContext {
  readonly deps: EngineDeps;
  readonly events: LoopEmitter;
  /** The run's deadline (Stop or the time budget), null between runs. */
  readonly deadline: RunDeadline | null;
  /** What the last applied edit overwrote: the way back when the state folder (and every snapshot) is gone. */
  readonly lastApply: LastApplyMemory;
  /** What the loop may read and write, and what is protected. */
  readonly policy: PathPolicy;
  /** The states the run has been in, kept or rejected: how a revisit is known without running the tests. */
  readonly known: KnownStates;
  /** Adds a warning to the run (once) and tells the host. */
  warn(state: RunState, message: string): void;
}

/** Everything that can take long gets this: it aborts on Stop and when the time budget ends. */
export function runSignal(ctx: LoopContext): AbortSignal {
  if (!ctx.deadline) throw new Error('No run is in progress.');
  return ctx.deadline.signal;
}
