// What a check tells the agent that asked for it: the witness, the verdict against the best state so far, and the
// guard's decision (continue, or stop and why), as data and as a few lines of text for clients that show only text.
import type { EscalationReason, IterationRecord, RunState } from '../ports/runState';
import { listForNote } from '../core/judge/witnessCompare';
import { greenWords } from '../core/judge/cleanWords';
import type { LoadErrorFile } from '../ports/verifier';

export interface CheckAnswer {
  session: string;
  /** This check's number and the most the session allows (the first check is the baseline, check 0). */
  check: number;
  maxChecks: number;
  verdict: 'baseline' | IterationRecord['verdict'];
  decision: 'continue' | 'stop';
  /** Why the session stops: green, or the guard that tripped. */
  reason: 'green' | EscalationReason | null;
  green: boolean;
  failing: Array<{ id: string; file?: string; message: string }>;
  /** Test files that did not load now (none of their tests ran), counted apart from the failing tests. */
  loadErrorFiles: string[];
  diagnostics: Array<{ file: string; line?: number; code: string; message: string }>;
  ran: number | null;
  missing: string[];
  flaky: string[];
  /** The files put back because this check found a regression (or protected tests edited), and why. */
  rolledBack: { files: string[]; why: string } | null;
  /** Checks in a row without progress, and how many the session allows. */
  withoutProgress: number;
  patience: number;
  /** Failing tests at the start, now, and in the best state so far. */
  failingAtStart: number;
  failingBest: number;
  /** What to tell the person, in a sentence or two. */
  note: string;
  text: string;
}

const MESSAGE_CHARS = 600;
const SHOWN_FAILURES = 20;

export function checkAnswer(session: string, state: RunState): CheckAnswer {
  const last = state.iterations.at(-1);
  const witness = state.current.witness;
  const running = state.outcome === 'running';
  const green = state.outcome === 'green' || witness.green;
  const reason = running ? null : green ? 'green' : state.reason;
  const rolledBackFiles = last?.rolledBack ? last.files : [];
  const reverted = last?.reverted ?? [];
  const rolledBack = rolledBackFiles.length || reverted.length
    ? { files: [...new Set([...rolledBackFiles, ...reverted.map((r) => r.path)])], why: last?.note ?? '' }
    : null;
  const answer: CheckAnswer = {
    session,
    check: state.iterations.length,
    maxChecks: state.limits.maxIterations,
    verdict: last ? last.verdict : 'baseline',
    decision: running ? 'continue' : 'stop',
    reason,
    green,
    failing: witness.failures.slice(0, SHOWN_FAILURES).map((f) => ({ id: f.id, ...(f.file ? { file: f.file } : {}), message: (f.message ?? '').slice(0, MESSAGE_CHARS) })),
    loadErrorFiles: witness.loadErrorFiles ?? [],
    diagnostics: witness.diagnostics.slice(0, SHOWN_FAILURES).map((d) => ({ file: d.file, ...(d.line ? { line: d.line } : {}), code: d.code, message: d.message })),
    ran: last?.ran ?? witness.ranCount ?? (witness.ran ? witness.ran.length : null),
    missing: last?.missing ?? [],
    flaky: state.flaky ?? [],
    rolledBack,
    withoutProgress: state.consecutiveNoProgress,
    patience: state.config.patience,
    failingAtStart: state.baseline.witness.failing.length,
    failingBest: state.best.witness.failing.length,
    note: green ? greenWords(witness) : running ? (last?.note ?? 'Baseline recorded.') : state.reasonText,
    text: '',
  };
  answer.text = answerText(answer, witness.failing, witness.loadErrors ?? [], witness.unmeasured === true);
  return answer;
}

function answerText(a: CheckAnswer, failingIds: string[], notLoaded: readonly LoadErrorFile[], unmeasured: boolean): string {
  const lines: string[] = [];
  if (a.green) lines.push(`GREEN: ${a.note.replace(/^all tests pass/, 'every test passes')}. Stop here.`);
  else if (a.decision === 'stop') lines.push(`STOP (${a.reason}): ${a.note}`);
  else lines.push(`CONTINUE: check ${a.check} of ${a.maxChecks}, ${a.withoutProgress} of ${a.patience} allowed without progress.`);
  if (a.verdict !== 'baseline') lines.push(`Verdict: ${a.verdict} — ${a.note}`);
  // The tests gave no usable result: zeros here would read as a count (or as green).
  if (unmeasured) lines.push('No test count: the tests gave no usable result.');
  else if (!a.green) lines.push(`Failing now: ${failingIds.length} (${a.failingAtStart} at the start, ${a.failingBest} at best)${failingIds.length ? `: ${listForNote(failingIds.slice(0, 10))}` : ''}.`);
  if (notLoaded.length) {
    // The first file's error is usually every file's: a syntax error in a module they all import.
    const first = notLoaded[0]!.message.split('\n').find((l) => l.trim()) ?? '';
    lines.push(`Test files that did not load (none of their tests ran): ${notLoaded.length}: ${listForNote(notLoaded.map((e) => e.file))}${first ? ` — ${first.trim().slice(0, 200)}` : ''}.`);
  }
  if (a.rolledBack) lines.push(`Rolled back: ${a.rolledBack.files.join(', ')}.`);
  if (a.missing.length) lines.push(`Missing (ran before, not reported now): ${listForNote(a.missing)}.`);
  if (a.diagnostics.length) lines.push(`Type errors: ${a.diagnostics.length}.`);
  return lines.join('\n');
}
