// Which kept edits no whole-suite run has seen: read by the re-judge step and by the flaky re-runs, which leave a
// regression such edits may have caused to the re-judge.
import type { IterationRecord, RunState } from '../../../ports/runState';

/**
 * The attempts since the workspace last was a whole-suite-verified state whose edits are still in it and were judged
 * only by their targeted run: whatever they broke, no run has seen.
 */
export function hiddenEdits(state: RunState): IterationRecord[] {
  const out: IterationRecord[] = [];
  for (let i = state.iterations.length - 1; i >= 0; i--) {
    const it = state.iterations[i];
    if (it.n <= state.best.iteration || it.rolledBack) break;
    if (it.afterSnapshot === null || it.verdict === 'invalid-proposal') continue;
    if (it.judgedBy !== 'targeted') break;
    out.push(it);
  }
  return out.reverse();
}
