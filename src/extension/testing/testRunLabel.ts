// What the test terminal calls the test run that is about to start, read from the engine's events: "baseline",
// "attempt 2" in a run of Fix until green, "check 3" in an agent's check session (the number its answer gives).
// Pure (no vscode), so it is tested directly.
import type { LoopEvent } from '../../core/loop/events';

/** `noun`: what one step of the loop is to the person reading the terminal. */
export type StepNoun = 'attempt' | 'check';

/** The name of the test runs the event announces, or null when it announces none. */
export function testRunLabel(e: LoopEvent, noun: StepNoun): string | null {
  if (e.type === 'verifying') return `${noun} ${e.n}`;
  if (e.type !== 'phase') return null;
  switch (e.phase) {
    case 'baseline-tests':
      // A check session's first check is its check 0, as the answer to the agent says.
      return noun === 'check' ? 'check 0 (baseline)' : 'baseline';
    case 'resume-tests':
      return 'the workspace as you left it';
    case 'final-tests':
      return 'the state the run ends at';
    default:
      return null;
  }
}
