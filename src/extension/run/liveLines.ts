// One line per loop step for the progress notification and the "Greenloop" output channel, in plain words: what
// happened to each attempt (an edit refused, a regression rolled back, a flaky test) is said when it happens.
import type { LoopEvent, RunPhase } from '../../core/loop/events';
import { countsText, verdictWords } from '../../shared/plainWords';
import { candidatesText, runningText } from '../../session/progressLine';

export function liveLine(e: LoopEvent): string | null {
  switch (e.type) {
    case 'phase':
      return phaseLine(e.phase, e.agent === true);
    case 'run-started':
      if (e.unverified) return 'the first test run could not be used';
      return `${e.resumed ? 'resumed' : 'before any edit'}: ${countsText(e.baselineFailing, e.baselineDiagnostics, e.baselineNotLoaded)}`;
    case 'iteration-started':
      if (e.autofix) return "running the project's own fixers of the failing checks (no model)";
      return `attempt ${e.n}/${e.max}: asking the ${e.agent ? 'agent' : 'model'}`;
    case 'retrying':
      return `attempt ${e.n}: ${e.message}; trying again in ${(e.delayMs / 1000).toFixed(1)} s`;
    case 'proposal-received':
      if (e.commands) return `the project's fixers ran ${e.commands.map((c) => `\`${c.command}\``).join(', ') || 'nothing'}${e.files.length ? `, editing ${e.files.join(', ')}` : ', changing nothing'}`;
      return `attempt ${e.n}: answer received${e.files.length ? `, editing ${e.files.join(', ')}` : ''}`;
    case 'applied':
      return null;
    case 'candidate-tried':
      return `attempt ${e.n}: answer ${e.k} of ${e.of}: ${e.note}`;
    case 'candidates-judged':
      return `attempt ${e.n}: ${candidatesText(e.candidates)}; keeping answer ${e.chosen} for the whole suite`;
    case 'verifying':
      // Which tests judge the attempt: the failing ones first, the whole suite when it can change the verdict.
      return e.scope ? `${runningText(e)} (attempt ${e.n})` : `running the tests (attempt ${e.n})`;
    case 'verified':
      return verifiedLine(e);
    case 'warning':
      return `warning: ${e.message}`;
    case 'coverage':
      return `coverage of the failing tests ${e.note.used ? 'used' : 'not used'}: ${e.note.why}`;
    case 'escalated':
      return `stopped: ${e.message}`;
    case 'finished':
      return null;
  }
}

/** What runs before the first attempt (or outside one): the notification says it while it runs. */
export function phaseLine(phase: RunPhase, agent: boolean): string {
  switch (phase) {
    case 'snapshot':
      return 'saving the workspace as it is (snapshot)';
    case 'model-check':
      return `checking that the ${agent ? 'agent' : 'model'} can be used`;
    case 'baseline-tests':
      return 'running the tests (baseline)';
    case 'resume-tests':
      return 'running the tests (the workspace as you left it)';
    case 'final-tests':
      return 'running the tests once more (the state the run ends at)';
    case 'coverage-tests':
      return 'running the failing tests with coverage, then without (where they go)';
  }
}

function verifiedLine(e: Extract<LoopEvent, { type: 'verified' }>): string {
  const counts = countsText(e.failing, e.diagnostics, e.notLoaded);
  const flaky = e.iteration?.flaky?.length ? `; flaky: ${e.iteration.flaky.join(', ')} failed, then passed on a re-run` : '';
  const note = e.note ? ` (${e.note})` : '';
  const who = e.iteration?.actor === 'autofix' ? "the project's fixers" : `attempt ${e.n}`;
  switch (e.verdict) {
    case 'invalid-proposal':
      return `${who}: edit refused${note}`;
    case 'regression':
      return `${who}: regression, ${counts}${e.rolledBack ? '; the edit was rolled back' : ''}${note}${flaky}`;
    default:
      return `${who}: ${verdictWords(e.verdict)}, ${counts}${e.rolledBack ? '; the edit was rolled back' : ''}${flaky}`;
  }
}
