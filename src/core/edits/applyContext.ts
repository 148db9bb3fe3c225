// What writing an edit needs: the workspace and its snapshots, the journal, the path rules, the stop signal. Shared by a
// model's answer (applyModelAnswer.ts) and an agent's edits (acceptAgentEdits.ts).
import type { PathPolicy } from './pathPolicy';
import type { WorkspaceWriter } from '../loop/states/rollback';
import type { WriteIntent } from '../../ports/journal';
import type { LastApplyMemory } from '../loop/states/lastApply';

export interface ApplyContext extends WorkspaceWriter {
  policy: PathPolicy;
  /** What the journal must say before the edit is written: the attempt and the state a crash returns to. */
  intent?: Pick<WriteIntent, 'attempt' | 'returnTo' | 'artifacts'>;
  /** Stop: checked between blocks, so a long answer never holds it up. */
  signal?: AbortSignal;
  /** Keeps what the edit overwrites, for the one case no snapshot can undo it (the state folder deleted). */
  memory?: LastApplyMemory;
}

/** Paths for a sentence: the first three and how many more, or all of them joined with `last`. */
export function listPaths(paths: string[], last = ','): string {
  if (paths.length > 3) return `${paths.slice(0, 3).join(', ')} and ${paths.length - 3} more`;
  return last === ',' || paths.length < 2 ? paths.join(', ') : `${paths.slice(0, -1).join(', ')} ${last} ${paths[paths.length - 1]}`;
}
