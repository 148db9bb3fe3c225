// The status bar's words and colour for a run, as plain data (statusBar.ts puts them on the item).
import type { RunTally } from '../run/runTally';
import { countsText, workspaceAtText } from '../../shared/plainWords';
import { phaseLine } from '../run/liveLines';

export type Severity = 'normal' | 'warning' | 'error';

export interface StatusView {
  text: string;
  /** Markdown lines for the tooltip. */
  tooltip: string[];
  /** Read by screen readers instead of the codicons. */
  accessibleLabel: string;
  severity: Severity;
}

/** Above this share of any budget the item turns to the warning colour. */
export const WARN_FRACTION = 0.75;

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10_000) return `${(n / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

export function elapsedMs(t: RunTally, now: number): number {
  return t.elapsedBeforeMs + ((t.finishedAt ?? now) - t.startedAt);
}

/** The largest share of a budget used so far (0 when no budget is limited). */
export function budgetUse(t: RunTally, now: number): number {
  const shares = [t.iteration / t.maxIterations];
  if (t.maxTokens > 0) shares.push(t.tokens / t.maxTokens);
  if (t.maxMinutes > 0) shares.push(elapsedMs(t, now) / (t.maxMinutes * 60_000));
  return Math.max(...shares.filter((x) => Number.isFinite(x)));
}

function startText(t: RunTally): string {
  if (t.startPhase === 'model-check') return `checking the ${t.agent ? 'agent' : 'model'}`;
  if (t.startPhase === 'snapshot') return 'saving the workspace';
  return 'checking tests';
}

function startTooltip(t: RunTally): string {
  if (t.startPhase === 'snapshot' || t.startPhase === 'model-check') return `${phaseLine(t.startPhase, t.agent)[0]!.toUpperCase()}${phaseLine(t.startPhase, t.agent).slice(1)}…`;
  return 'Running the tests on the unchanged workspace…';
}

export function statusView(t: RunTally, now: number): StatusView {
  const elapsed = elapsedMs(t, now);
  // Before the first count the item says what runs (the model check can take a while), never a count.
  const failingText = t.failing === null ? startText(t) : countsText(t.failing, t.diagnostics, t.notLoaded);
  const tokenText = t.maxTokens > 0 ? `${formatTokens(t.tokens)}/${formatTokens(t.maxTokens)} tok` : `${formatTokens(t.tokens)} tok`;
  const timeText = formatDuration(elapsed);
  const tooltip = [
    t.trend.length ? `Failing per step: ${t.trend.join(' → ')}` : startTooltip(t),
    `Left: ${leftText(t, elapsed)}`,
  ];

  if (t.outcome === 'running') {
    const icon = t.paused ? '$(debug-pause)' : '$(sync~spin)';
    const text = `${icon} Greenloop ${t.iteration}/${t.maxIterations} · ${failingText} · ${tokenText} · ${timeText}`;
    if (t.paused) tooltip.unshift('Paused: a file you are editing is waiting for your answer.');
    tooltip.push('Click to open the run.');
    const severity: Severity = budgetUse(t, now) > WARN_FRACTION ? 'warning' : 'normal';
    return {
      text, tooltip, severity,
      accessibleLabel: `Greenloop ${t.paused ? 'paused' : 'running'}: attempt ${t.iteration} of ${t.maxIterations}, ${failingText}, ${t.tokens} tokens used, ${timeText} elapsed`,
    };
  }
  const summary = `${t.iteration} attempt${t.iteration === 1 ? '' : 's'}, ${tokenText}, ${timeText}`;
  const at = workspaceAtText(t.workspaceAt);
  // Where the workspace is now (it moves with Roll back and Accept), shown on the item when it is not the run's end.
  const where = t.workspaceAt === 'baseline' ? ' · at baseline' : '';
  tooltip.push(summary, ...(at ? [`Workspace at ${at}.`] : []), 'Click to open the run.');
  switch (t.outcome) {
    case 'green':
      if (t.workspaceAt === 'baseline') {
        return { text: `$(discard) Greenloop rolled back · ${failingText}`, tooltip: ['All tests passed at the end of the run; you rolled the workspace back to the baseline.', ...tooltip], severity: 'normal', accessibleLabel: `Greenloop: rolled back to the baseline, ${failingText}` };
      }
      return { text: '$(pass) Greenloop green', tooltip: ['All tests pass.', ...tooltip], severity: 'normal', accessibleLabel: `Greenloop: green after ${summary}` };
    case 'escalated':
      // The tests never gave a usable count, so there is none to show: "0 failing" would read as green.
      if (t.failing === null || (t.reason === 'verify-error' && t.iteration === 0)) {
        const text = `Greenloop: ${unmeasuredWords(t)}`;
        return { text: `$(error) ${text}`, tooltip: [`Stopped: ${t.reasonText || text}`, 'The tests gave no count; nothing was changed.', 'Click to open the run.'], severity: 'error', accessibleLabel: text };
      }
      return {
        text: `$(error) Greenloop escalated · ${failingText}${where}`,
        tooltip: [`Stopped: ${t.reasonText || t.reason}`, ...tooltip],
        severity: 'error',
        accessibleLabel: `Greenloop escalated (${t.reason ?? 'unknown'}): ${failingText}`,
      };
    case 'cancelled':
      // Stopped while the first test run was on: no count was ever known, so none is shown.
      if (t.failing === null) {
        const text = 'Greenloop stopped before the first test run finished';
        return { text: `$(circle-slash) ${text}`, tooltip: [`${text}; nothing was changed.`], severity: 'normal', accessibleLabel: text };
      }
      return { text: `$(circle-slash) Greenloop stopped · ${failingText}${where}`, tooltip: ['Stopped by you.', ...tooltip], severity: 'normal', accessibleLabel: `Greenloop stopped: ${failingText}` };
    default:
      return { text: '$(error) Greenloop failed', tooltip: [t.reasonText || 'Internal error.', ...tooltip], severity: 'error', accessibleLabel: `Greenloop failed: ${t.reasonText}` };
  }
}

/** Why a run that stopped before its first usable test run has no count, in the fewest words. */
function unmeasuredWords(t: RunTally): string {
  switch (t.reason) {
    case 'verify-error': return 'the tests could not run';
    case 'actor-error': return `the ${t.agent ? 'agent' : 'model'} cannot be used · tests not run`;
    case 'budget-time': return 'out of time before the first test run finished';
    default: return 'stopped before the first test run finished';
  }
}

function leftText(t: RunTally, elapsed: number): string {
  const parts = [`${Math.max(0, t.maxIterations - t.iteration)} attempts`];
  parts.push(t.maxTokens > 0 ? `${formatTokens(Math.max(0, t.maxTokens - t.tokens))} tokens` : 'no token limit');
  parts.push(t.maxMinutes > 0 ? `${formatDuration(t.maxMinutes * 60_000 - elapsed)} of time` : 'no time limit');
  return parts.join(', ');
}
