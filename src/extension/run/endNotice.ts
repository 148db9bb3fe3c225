// What a run tells the person when it ends, or when it could not start: a level, one sentence and the buttons that
// help. Plain data, no vscode: showNotice.ts puts it on screen, and the words are tested directly.
import type { RunState } from '../../ports/runState';
import { STOPPED_BEFORE_BASELINE } from '../../core/run/report';
import { workspaceAtText } from '../../shared/plainWords';
import { setupActionsFor } from '../../shared/setupActions';
import type { SetupAction } from '../../shared/setupActions';
import { toastText } from './toastText';

export type NoticeButton = 'Open run' | 'Run anyway' | 'Open the last run' | 'Show output';

export type EndNotice =
  | {
    kind: 'message'; level: 'info' | 'warning' | 'error'; text: string; buttons: NoticeButton[];
    /** Written to the log as an error before the toast shows (the whole text the toast does not). */
    logError?: string;
    /** The run's end waits for the person's answer (it may start another run). */
    waitsForChoice?: boolean;
  }
  | { kind: 'setup'; text: string; actions: SetupAction[] }
  | { kind: 'panel' };

export type EndState = Pick<RunState, 'outcome' | 'reason' | 'crossRun' | 'iterations' | 'finalState' | 'config'>;

/** `reasonText` is the state's, already redacted; `testSource` says which button a test-command problem gets. */
export function endOfRunNotice(state: EndState, reasonText: string, testSource?: string): EndNotice {
  const n = state.iterations.length;
  const attempts = `${n} attempt${n === 1 ? '' : 's'}`;
  if (state.outcome === 'green') {
    const focus = state.config.focus?.length ?? 0;
    const what = focus ? `the focused test${focus === 1 ? '' : 's'} pass${focus === 1 ? 'es' : ''}` : 'all tests pass';
    return { kind: 'message', level: 'info', text: `Greenloop: ${what} after ${attempts}.`, buttons: ['Open run'] };
  }
  if (state.outcome === 'escalated' && state.crossRun && n === 0) {
    // The cross-run guard stopped the run before any model call: the person may know better, and say so.
    return { kind: 'message', level: 'warning', text: reasonText, buttons: ['Run anyway', 'Open the last run'], waitsForChoice: true };
  }
  if (state.outcome === 'escalated' && n === 0 && (state.reason === 'actor-error' || state.reason === 'verify-error')) {
    // Stopped before any model call on a setup problem: one sentence and the button that fixes it.
    return { kind: 'setup', text: `Greenloop: ${reasonText}`, actions: setupActionsFor(state.reason, reasonText, testSource) };
  }
  if (state.outcome === 'escalated') return { kind: 'panel' };
  if (state.outcome === 'cancelled') {
    // "Left at the best state" only means something when an attempt ran; before that nothing was changed.
    const where = n ? workspaceAtText(state.finalState) : null;
    const text = where ? `Greenloop stopped; the workspace is at ${where}.` : 'Greenloop stopped before any edit; the workspace is unchanged.';
    return { kind: 'message', level: 'info', text, buttons: ['Open run'] };
  }
  return { kind: 'message', level: 'error', text: 'Greenloop stopped on an internal error.', buttons: ['Show output', 'Open run'], logError: reasonText };
}

/** The run did not start, or the loop threw: `message` is already redacted. */
export function notStartedNotice(message: string, cancelled: boolean): EndNotice {
  if (cancelled) return { kind: 'message', level: 'info', text: `Greenloop: ${STOPPED_BEFORE_BASELINE}`, buttons: [] };
  // A setup problem gets the buttons that fix it; any other error a toast with its whole text one click away.
  const actions = setupActionsFor(null, message);
  if (actions.length) return { kind: 'setup', text: message, actions };
  return toastNotice('error', message);
}

/** A long message is cut at a sentence end on the toast; its whole text is one click away in the output. */
export function toastNotice(level: 'warning' | 'error', message: string): EndNotice {
  const { text, cut } = toastText(message);
  return { kind: 'message', level, text, buttons: cut ? ['Show output'] : [] };
}
