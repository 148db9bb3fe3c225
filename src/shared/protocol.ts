// The escalation panel's typed messages: one map per direction. Both sides validate what they receive, because a
// webview is a separate process and a message is only data until checked.
import type { SetupAction, SetupActionId } from './setupActions';
import { SETUP_ACTION_IDS } from './setupActions';

/** One point of the failing-count chart; n 0 is the baseline. */
export interface ChartPoint {
  n: number;
  failing: number;
  verdict: string;
}

export interface HypothesisItem {
  n: number;
  verdict: string;
  /** The verdict in plain words ("edit refused", "no progress"). */
  verdictText: string;
  failing: number;
  /** "3 failing, 1 type error": tests and type errors counted apart. */
  countsText: string;
  hypothesis: string;
  note: string;
  /** An agent CLI's attempt: "Agent: 7 requests (2 answered by Greenloop: request-cap), exit 0". */
  agentText?: string;
  /** Attempt 0 made by the project's own fixers, no model: "The project's fixers ran: npx eslint --fix src/a.js (0.8 s)". */
  fixersText?: string;
  /** Files of the agent's attempt put back, each "path — why". */
  reverted?: string[];
  /** Changes outside the snapshotted tree left as they are (nobody can undo or attribute them), each "where what — why". */
  outsideWarnings?: string[];
  /** Casts the edit added on a diagnostic's line (`as any`…), each a sentence naming file, line and cast. */
  castWarnings?: string[];
}

/** One answer of an attempt that asked for several (`--candidates N`), as the panel lists it. */
export interface CandidateItem {
  k: number;
  chosen: boolean;
  verdict: string;
  /** The verdict in plain words ("no progress", "refused"). */
  verdictText: string;
  /** "2 failing (1 newly) · 1,300 tokens"; for an answer never tested, its tokens alone. */
  detail: string;
  files: string[];
  /** What its trial said, or why it was set aside untested. */
  note: string;
  /** Why another answer was kept instead; absent for the chosen one. */
  lostBecause?: string;
}

/** The answers of the last attempt that asked for several: the panel lists them, with why each lost. */
export interface CandidatesOfAttempt {
  n: number;
  /** "3 candidates — 1 green, 1 no progress, 1 refused". */
  summary: string;
  items: CandidateItem[];
}

/** A cast an attempt added that the workspace still holds, for the person to check. */
export interface CastWarningItem {
  n: number;
  text: string;
}

/** A file the run changed, and which of the two comparisons the diff editor can show for it. */
export interface ChangedFile {
  path: string;
  /** Differs between the baseline and the best state. */
  baselineToBest: boolean;
  /** Differs between the best state and the workspace now. */
  bestToNow: boolean;
}

/** Which actions make sense for the run as it is now (the buttons are enabled from this, never from a guess). */
export interface PanelActions {
  retry: boolean;
  rollbackBest: boolean;
  rollbackBaseline: boolean;
  accept: boolean;
}

export type DiffSide = 'baseline-best' | 'best-now';

export interface ExtraBudgetInput {
  iterations: number;
  tokens: number;
  minutes: number;
}

/** Everything the panel shows about one run, computed on the host. */
export interface PanelData {
  runId: string;
  folderName: string;
  outcome: string;
  running: boolean;
  /** Short heading, e.g. "Stuck: no progress". */
  reasonTitle: string;
  /** Why the loop stopped, in plain words. */
  reasonSentence: string;
  /** What the person can do about it. */
  advice: string;
  /** The engine's own sentence with the numbers of this run. */
  reasonText: string;
  finalState: string | null;
  /** "Workspace at the baseline (as before the run): 6 failing" — where the workspace is now. */
  workspaceText: string;
  startedAt: number;
  baselineFailing: number;
  finalFailing: number;
  /** Counts in words, tests and type errors apart: "6 failing", "3 failing, 1 type error". */
  baselineText: string;
  finalText: string;
  /** From the start to now, "6 failing → 4 failing"; "no test count" when the tests never gave one. */
  countsText: string;
  /** The tests failing now, by name (type errors are counted in finalText, not listed as tests). */
  failingTests: string[];
  tokensUsed: number;
  points: ChartPoint[];
  hypotheses: HypothesisItem[];
  outputExcerpt: string;
  changedFiles: ChangedFile[];
  actions: PanelActions;
  hints: string[];
  /** Tests found flaky in this run (failed, then passed on a re-run of the same files). */
  flaky: string[];
  /**
   * Casts added on a diagnostic's line by the attempts whose edits are still in the workspace: a cast can be right, so
   * it is kept, but it may only hide the error.
   */
  castWarnings?: CastWarningItem[];
  /** The last attempt that asked for several answers (`--candidates N`): each answer, its verdict and why it lost. */
  candidates?: CandidatesOfAttempt;
  defaultExtra: ExtraBudgetInput;
  /** What fixes a setup problem (Open Settings, Open tasks.json, Set API key…): shown before Retry with hint. */
  setupActions?: SetupAction[];
}

export interface HostToWebview {
  show: { data: PanelData };
  status: { message: string; level: 'info' | 'error' };
  busy: { busy: boolean };
}

export interface WebviewToHost {
  ready: Record<never, never>;
  retry: { hint: string; extra: ExtraBudgetInput };
  rollback: { to: 'best' | 'baseline' };
  accept: Record<never, never>;
  close: Record<never, never>;
  setupAction: { id: SetupActionId };
  openDiff: { path: string; side: DiffSide };
}

export type HostMessage = { [K in keyof HostToWebview]: { type: K } & HostToWebview[K] }[keyof HostToWebview];
export type WebviewMessage = { [K in keyof WebviewToHost]: { type: K } & WebviewToHost[K] }[keyof WebviewToHost];

/** A hint is prompt text; a bound keeps a pasted log from eating the token budget. */
export const MAX_HINT_CHARS = 4000;
export const MAX_EXTRA = { iterations: 100, tokens: 10_000_000, minutes: 24 * 60 } as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isCount(v: unknown, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;
}

/** Returns the extra budget when valid; at least one more attempt, since a grant without one cannot run. */
export function parseExtraBudget(v: unknown): ExtraBudgetInput | null {
  if (!isRecord(v)) return null;
  const { iterations, tokens, minutes } = v;
  if (!isCount(iterations, MAX_EXTRA.iterations) || iterations < 1) return null;
  if (!isCount(tokens, MAX_EXTRA.tokens) || !isCount(minutes, MAX_EXTRA.minutes)) return null;
  return { iterations, tokens, minutes };
}

/** Checks a message from the webview; anything unknown or malformed is null and must be ignored. */
export function parseWebviewMessage(raw: unknown): WebviewMessage | null {
  if (!isRecord(raw) || typeof raw.type !== 'string') return null;
  switch (raw.type) {
    case 'ready':
      return { type: 'ready' };
    case 'accept':
      return { type: 'accept' };
    case 'close':
      return { type: 'close' };
    case 'rollback':
      return raw.to === 'best' || raw.to === 'baseline' ? { type: 'rollback', to: raw.to } : null;
    case 'setupAction':
      return SETUP_ACTION_IDS.includes(raw.id as SetupActionId) ? { type: 'setupAction', id: raw.id as SetupActionId } : null;
    case 'openDiff':
      return typeof raw.path === 'string' && raw.path.length > 0 && raw.path.length <= 4096 && (raw.side === 'baseline-best' || raw.side === 'best-now')
        ? { type: 'openDiff', path: raw.path, side: raw.side }
        : null;
    case 'retry': {
      if (typeof raw.hint !== 'string' || raw.hint.length > MAX_HINT_CHARS) return null;
      const extra = parseExtraBudget(raw.extra);
      return extra ? { type: 'retry', hint: raw.hint.trim(), extra } : null;
    }
    default:
      return null;
  }
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((s) => typeof s === 'string');
}

function isCandidateItem(v: unknown): v is CandidateItem {
  return isRecord(v) && typeof v.k === 'number' && typeof v.chosen === 'boolean' && typeof v.verdict === 'string' && typeof v.verdictText === 'string'
    && typeof v.detail === 'string' && isStringArray(v.files) && typeof v.note === 'string' && (v.lostBecause === undefined || typeof v.lostBecause === 'string');
}

function isCandidatesOfAttempt(v: unknown): v is CandidatesOfAttempt {
  return isRecord(v) && typeof v.n === 'number' && typeof v.summary === 'string' && Array.isArray(v.items) && v.items.every(isCandidateItem);
}

function isPanelData(v: unknown): v is PanelData {
  if (!isRecord(v)) return false;
  const strings = ['runId', 'folderName', 'outcome', 'reasonTitle', 'reasonSentence', 'advice', 'reasonText', 'outputExcerpt', 'workspaceText', 'baselineText', 'finalText', 'countsText'];
  const numbers = ['startedAt', 'baselineFailing', 'finalFailing', 'tokensUsed'];
  return strings.every((k) => typeof v[k] === 'string')
    && numbers.every((k) => typeof v[k] === 'number')
    && typeof v.running === 'boolean'
    && (v.finalState === null || typeof v.finalState === 'string')
    && Array.isArray(v.points) && v.points.every((p) => isRecord(p) && typeof p.n === 'number' && typeof p.failing === 'number' && typeof p.verdict === 'string')
    && Array.isArray(v.hypotheses) && v.hypotheses.every((h) => isRecord(h) && typeof h.n === 'number' && typeof h.hypothesis === 'string'
      && (h.agentText === undefined || typeof h.agentText === 'string') && (h.reverted === undefined || isStringArray(h.reverted))
      && (h.outsideWarnings === undefined || isStringArray(h.outsideWarnings)) && (h.castWarnings === undefined || isStringArray(h.castWarnings)))
    && (v.castWarnings === undefined || (Array.isArray(v.castWarnings) && v.castWarnings.every((c) => isRecord(c) && typeof c.n === 'number' && typeof c.text === 'string')))
    && (v.candidates === undefined || isCandidatesOfAttempt(v.candidates))
    && isStringArray(v.hints)
    && isStringArray(v.flaky)
    && isStringArray(v.failingTests)
    && Array.isArray(v.changedFiles) && v.changedFiles.every((f) => isRecord(f) && typeof f.path === 'string' && typeof f.baselineToBest === 'boolean' && typeof f.bestToNow === 'boolean')
    && isRecord(v.actions) && ['retry', 'rollbackBest', 'rollbackBaseline', 'accept'].every((k) => typeof (v.actions as Record<string, unknown>)[k] === 'boolean')
    && parseExtraBudget(v.defaultExtra) !== null
    && (v.setupActions === undefined || (Array.isArray(v.setupActions) && v.setupActions.every((a) => isRecord(a) && SETUP_ACTION_IDS.includes(a.id as SetupActionId) && typeof a.label === 'string')));
}

/** Checks a message from the host (the webview side of the same contract). */
export function parseHostMessage(raw: unknown): HostMessage | null {
  if (!isRecord(raw) || typeof raw.type !== 'string') return null;
  switch (raw.type) {
    case 'show':
      return isPanelData(raw.data) ? { type: 'show', data: raw.data } : null;
    case 'status':
      return typeof raw.message === 'string' && (raw.level === 'info' || raw.level === 'error')
        ? { type: 'status', message: raw.message, level: raw.level }
        : null;
    case 'busy':
      return typeof raw.busy === 'boolean' ? { type: 'busy', busy: raw.busy } : null;
    default:
      return null;
  }
}

/** The sentence under the budget inputs, so the person sees exactly what Retry grants. */
export function describeGrant(extra: ExtraBudgetInput): string {
  const parts = [`${extra.iterations} more attempt${extra.iterations === 1 ? '' : 's'}`];
  parts.push(extra.tokens > 0 ? `${extra.tokens.toLocaleString('en-US')} more tokens` : 'no extra tokens');
  parts.push(extra.minutes > 0 ? `${extra.minutes} more minute${extra.minutes === 1 ? '' : 's'}` : 'no extra time');
  return `This grants ${parts[0]}, ${parts[1]} and ${parts[2]}.`;
}
