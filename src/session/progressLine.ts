// One stderr line per loop step, readable by a person following along.
import type { LoopEvent } from '../core/loop/events';
import type { FixerCommand } from '../ports/fixers';
import type { CandidateRecord, CandidateVerdict } from '../ports/runState';
import { agentCountsText, candidateWords, notLoadedText } from '../shared/plainWords';

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
      if (e.autofix) return "greenloop: autofix — running the project's own fixers of the failing checks (no model)";
      return `greenloop: attempt ${e.n}/${e.max} — asking the ${e.agent ? 'agent' : 'model'}`;
    case 'retrying':
      return `greenloop: attempt ${e.n}: ${e.message} — retry ${e.attempt} in ${(e.delayMs / 1000).toFixed(1)} s`;
    case 'proposal-received':
      if (e.commands) return `greenloop: autofix: ${e.commands.map(commandText).join('; ') || 'no fixer ran'}${e.files.length ? `, edits ${e.files.join(', ')}` : ', changed nothing'}`;
      return `greenloop: attempt ${e.n}: answer received (${e.tokens.prompt}+${e.tokens.completion} tokens)${e.files.length ? `, edits ${e.files.join(', ')}` : ''}`;
    case 'applied':
      return null;
    case 'candidate-tried':
      return `greenloop: attempt ${e.n}: answer ${e.k} of ${e.of} — ${candidateWords(e.verdict)}${e.files.length ? ` (${e.files.join(', ')})` : ''}: ${e.note}`;
    case 'candidates-judged':
      return `greenloop: attempt ${e.n}: ${candidatesText(e.candidates)}; answer ${e.chosen} goes on`;
    case 'verifying':
      return `greenloop: ${attemptName(e.n)}: ${runningText(e)}`;
    case 'verified': {
      // An agent's attempt says what it spent and why it ended, beside the verdict the tests gave.
      const agent = e.iteration?.agent ? ` [agent: ${agentCountsText(e.iteration.agent)}]` : '';
      return `greenloop: ${e.iteration?.actor === 'autofix' ? 'autofix' : `attempt ${e.n}`}: ${e.verdict} — ${failingText(e.failing, e.notLoaded)}, ${e.diagnostics} type errors${e.rolledBack ? ' (rolled back)' : ''}${agent}: ${e.note}`;
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
      const attempts = s.iterations.filter((it) => it.actor !== 'autofix').length;
      const fixers = s.iterations.some((it) => it.actor === 'autofix') ? " (and the project's fixers)" : '';
      return `greenloop: ${s.outcome} after ${attempts} attempt${attempts === 1 ? '' : 's'}${fixers}, ${s.llmCalls} model calls${requests}, ${s.tokens.prompt + s.tokens.completion} tokens; workspace left at the ${s.finalState ?? 'last'} state (${s.current.witness.unmeasured ? 'no test count' : failingText(s.current.witness.failing.length, s.current.witness.loadErrorFiles?.length)})`;
    }
  }
}


/** "3 candidates — 1 green, 1 no progress, 1 refused": what an attempt's answers came to, in the order of the pick. */
export function candidatesText(all: readonly Pick<CandidateRecord, 'verdict'>[]): string {
  const order: CandidateVerdict[] = ['green', 'progress', 'no-progress', 'refused', 'repeat', 'missing'];
  const parts = order.map((v) => [v, all.filter((c) => c.verdict === v).length] as const).filter(([, n]) => n > 0).map(([v, n]) => `${n} ${candidateWords(v)}`);
  return `${all.length} candidates — ${parts.join(', ')}`;
}

/** Attempt 0 is the project's fixers (the only attempt no model makes). */
function attemptName(n: number): string {
  return n === 0 ? 'autofix' : `attempt ${n}`;
}

/** "ESLint `npx eslint --fix src/a.js` (0.8 s)", and why it could not do its work. */
function commandText(c: FixerCommand): string {
  return `${c.tool} \`${c.command}\` (${(c.ms / 1000).toFixed(1)} s${c.problem ? `: ${c.problem}` : ''})`;
}
