// The words every surface (status bar, tree, panel, progress lines) uses for counts and verdicts, so failing tests
// and type errors are never summed into one number and no internal verdict name reaches a person.

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "106 test files did not load": files that did not load are not failing tests, and are never counted as ones. */
export function notLoadedText(files: number): string {
  return plural(files, 'test file did not load', 'test files did not load');
}

/**
 * "3 failing, 1 type error"; "2 type errors"; "0 failing" when all is well; "27 failing, 106 test files did not load";
 * "106 test files did not load" when they are all there is.
 */
export function countsText(failing: number, typeErrors: number, notLoaded = 0): string {
  const parts: string[] = [];
  if (failing > 0 || (typeErrors === 0 && notLoaded === 0)) parts.push(`${failing} failing`);
  if (notLoaded > 0) parts.push(notLoadedText(notLoaded));
  if (typeErrors > 0) parts.push(plural(typeErrors, 'type error', 'type errors'));
  return parts.join(', ');
}

/** Said where a count would be when the tests never gave one (the model or the tests could not be used). */
export const NO_TEST_COUNT = 'no test count';

const VERDICT_WORDS: Record<string, string> = {
  green: 'green',
  progress: 'progress',
  'no-progress': 'no progress',
  regression: 'regression',
  'invalid-proposal': 'edit refused',
  baseline: 'baseline',
};

/** A verdict as a person reads it; an unknown one (a newer history file) is shown with its dashes as spaces. */
export function verdictWords(verdict: string): string {
  return Object.prototype.hasOwnProperty.call(VERDICT_WORDS, verdict) ? VERDICT_WORDS[verdict] : verdict.replace(/-/g, ' ');
}

/** Where the workspace is after a run, for "workspace at the best state" lines; null when nothing says. */
export function workspaceAtText(finalState: string | null): string | null {
  switch (finalState) {
    case 'best': return 'the best state';
    case 'baseline': return 'the baseline (as before the run)';
    case 'last': return 'the state the run left';
    default: return null;
  }
}

/** An agent attempt's counts as the history keeps them (its transcript stays in the saved run). */
export interface AgentCounts {
  requests: number;
  gatewayAnswers: number;
  stoppedBy: string | null;
  exitCode: number | null;
}

/** "7 requests (2 answered by Greenloop: request-cap), exit 0": the tree and the panel say it the same way. */
export function agentCountsText(a: AgentCounts): string {
  const answered = a.gatewayAnswers > 0 ? ` (${a.gatewayAnswers} answered by Greenloop${a.stoppedBy ? `: ${a.stoppedBy}` : ''})` : '';
  const ended = a.exitCode === null ? 'stopped before it exited' : `exit ${a.exitCode}`;
  return `${plural(a.requests, 'request', 'requests')}${answered}, ${ended}`;
}

const CANDIDATE_WORDS: Record<string, string> = {
  green: 'green', progress: 'progress', 'no-progress': 'no progress', refused: 'refused', repeat: 'repeated', missing: 'did not arrive',
};

/** One answer's verdict of an attempt that asked for several (`--candidates N`): progress lines, tree, panel, summary. */
export function candidateWords(verdict: string): string {
  return Object.prototype.hasOwnProperty.call(CANDIDATE_WORDS, verdict) ? CANDIDATE_WORDS[verdict] : verdict.replace(/-/g, ' ');
}
