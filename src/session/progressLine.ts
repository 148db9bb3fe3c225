// One stderr line per loop step, readable by a person following along.
import type { LoopEvent } from '../core/loop/events';
import { agentCountsText, notLoadedText } from '../shared/plainWords';

/** "27 failing, 106 test files did not load": a file that did not load is not a failing test. */
function failingText(failing: number, notLoaded = 0): string {
  return notLoaded ? `${failing} failing, ${notLoadedText(notLoaded)}` : `${failing} failing`;
}

/** "running the 3 failing tests", "running the whole suite": what judges the attempt, as it starts. */
export function runningText(e: Extract<LoopEvent, { type: 'verifying' }>): string {
  const n = e.tests ?? 0;
  if (e.scope === 'targeted' && e.confirming) return `running the ${n === 1 ? 'test that now passes' : `${n} tests that now pass`} again`;
  if (e.scope === 'targeted') return `running the ${n === 1 ? 'failing test' : `${n} failing tests`}`;
  if (e.scope === 'full') return 'running the whole suite';
  return 'running the verifier';
}

export function progressLine(e: LoopEvent): string | null {
  switch (e.type) {
    case 'phase':
      // The CLI says a step by its result (the baseline line below), not as it begins.
      return null;
    case 'run-started':
      if (e.unverified && e.stoppedFor === 'actor-error') return `greenloop: the model cannot be used; the tests were not run (run ${e.runId})`;
      if (e.unverified && e.beforeTests) return `greenloop: stopped while the model was checked; the tests were not run (run ${e.runId})`;
      if (e.unverified) return `greenloop: the first test run could not be used (run ${e.runId})`;
      return `greenloop: ${e.resumed ? 'resumed' : 'baseline'} — ${failingText(e.baselineFailing, e.baselineNotLoaded)}, ${e.baselineDiagnostics} type errors (run ${e.runId})`;
    case 'iteration-started':
      return `greenloop: attempt ${e.n}/${e.max} — asking the ${e.agent ? 'agent' : 'model'}`;
    case 'retrying':
      return `greenloop: attempt ${e.n}: ${e.message} — retry ${e.attempt} in ${(e.delayMs / 1000).toFixed(1)} s`;
    case 'proposal-received':
      return `greenloop: attempt ${e.n}: answer received (${e.tokens.prompt}+${e.tokens.completion} tokens)${e.files.length ? `, edits ${e.files.join(', ')}` : ''}`;
    case 'applied':
      return null;
    case 'verifying':
      return `greenloop: attempt ${e.n}: ${runningText(e)}`;
    case 'verified': {
      // An agent's attempt says what it spent and why it ended, beside the verdict the tests gave.
      const agent = e.iteration?.agent ? ` [agent: ${agentCountsText(e.iteration.agent)}]` : '';
      return `greenloop: attempt ${e.n}: ${e.verdict} — ${failingText(e.failing, e.notLoaded)}, ${e.diagnostics} type errors${e.rolledBack ? ' (rolled back)' : ''}${agent}: ${e.note}`;
    }
    case 'coverage':
      return `greenloop: coverage of the failing tests ${e.note.used ? 'used' : 'not used'} — ${e.note.why}`;
    case 'warning':
      return `greenloop: warning: ${e.message}`;
    case 'escalated':
      return `greenloop: stopped (${e.reason}): ${e.message}`;
    case 'finished': {
      const s = e.state;
      const requests = s.requests !== undefined && s.requests !== s.llmCalls ? ` (${s.requests} requests)` : '';
      return `greenloop: ${s.outcome} after ${s.iterations.length} attempt${s.iterations.length === 1 ? '' : 's'}, ${s.llmCalls} model calls${requests}, ${s.tokens.prompt + s.tokens.completion} tokens; workspace left at the ${s.finalState ?? 'last'} state (${s.current.witness.unmeasured ? 'no test count' : failingText(s.current.witness.failing.length, s.current.witness.loadErrorFiles?.length)})`;
    }
  }
}
