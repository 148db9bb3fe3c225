// The cross-run guard: a person who starts the same failing run again and again, with the same model and budgets,
// on the same failing tests, is told why it will end the same way — and after K escalations in a row the new run
// stops before its first model call, unless they override it.
import type { HistoryRecord } from '../../../ports/history';

export interface CrossRunCheck {
  /** The escalated runs, newest last, that this run would repeat. */
  streak: HistoryRecord[];
  /** True when the streak reached the limit: the run must not ask the model unless overridden. */
  blocked: boolean;
  /** What a person (and the model) reads: the runs, their reasons, the pattern, what to change. */
  text: string;
}

/** limit 0 turns the guard off. Returns null when the recent runs are no reason for concern. */
export function checkCrossRun(records: readonly HistoryRecord[], hash: string, failing: readonly string[], limit: number): CrossRunCheck | null {
  if (limit <= 0) return null;
  const key = JSON.stringify([...failing].sort());
  const streak: HistoryRecord[] = [];
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i];
    // Files that did not load count as they always did (older records listed them among the failing tests).
    const same = r.outcome === 'escalated' && r.configHash === hash && JSON.stringify([...r.baselineFailing, ...(r.baselineLoadErrorFiles ?? [])].sort()) === key;
    if (!same) break;
    streak.unshift(r);
  }
  if (streak.length === 0) return null;
  const blocked = streak.length >= limit;
  const runs = streak.map((r) => `${r.runId} (${r.reason ?? r.outcome} after ${r.iterations.length} attempt${r.iterations.length === 1 ? '' : 's'})`).join(', ');
  const reasons = [...new Set(streak.map((r) => r.reason ?? r.outcome))];
  const pattern = reasons.length === 1 ? `every one stopped with ${reasons[0]}` : `they stopped with ${reasons.join(', ')}`;
  const tests = `${failing.length} failing test${failing.length === 1 ? '' : 's'}`;
  const lead = `The last ${streak.length} run${streak.length === 1 ? '' : 's'} on these same ${tests}, with this model and these budgets, escalated: ${runs}; ${pattern}.`;
  const change = 'Change something before trying again: resume one of them with a hint (what the bug is, where to look), use another model, raise the budget, or fix one test by hand.';
  const text = blocked
    ? `${lead} This run stopped before asking the model, since it would most likely end the same way. ${change}`
    : `${lead} ${limit - streak.length === 1 ? 'One more such escalation' : `${limit - streak.length} more such escalations`} and Greenloop will refuse to start another run like it. ${change}`;
  return { streak, blocked, text };
}
