// Judges one verified state against the best so far: the progress witness of the contract.
import type { Verdict, WitnessSummary } from './runState';
import { diagnosticKey } from '../verify/tsc';

export interface Judgement {
  verdict: Exclude<Verdict, 'invalid-proposal'>;
  /** Tests or diagnostics failing now that were fine in the best state. */
  newlyFailing: string[];
  /** Tests or diagnostics fixed relative to the best state. */
  fixed: string[];
  note: string;
}

const diagKeys = (w: WitnessSummary) => new Set(w.diagnostics.map((d) => diagnosticKey(d)));

export function judge(best: WitnessSummary, next: WitnessSummary): Judgement {
  if (next.green) return { verdict: 'green', newlyFailing: [], fixed: best.failing, note: 'all tests pass and the type check is clean' };

  // A suite that stops loading hides every test: always a regression. One that starts loading again is progress
  // even though its failures now become visible.
  if (next.loadError && !best.loadError) {
    return { verdict: 'regression', newlyFailing: ['(the test suite no longer loads)'], fixed: [], note: 'the test suite no longer loads' };
  }
  const bestDiag = diagKeys(best);
  const nextDiag = diagKeys(next);
  const newDiagnostics = next.diagnostics.filter((d) => !bestDiag.has(diagnosticKey(d))).map(describeDiagnostic);
  if (best.loadError && !next.loadError) {
    if (newDiagnostics.length) return { verdict: 'regression', newlyFailing: newDiagnostics, fixed: [], note: `new type errors: ${newDiagnostics.join('; ')}` };
    return { verdict: 'progress', newlyFailing: [], fixed: ['(the test suite loads again)'], note: `the suite loads again; ${next.failing.length} failing` };
  }

  const bestFailing = new Set(best.failing);
  const nextFailing = new Set(next.failing);
  const newTests = next.failing.filter((id) => !bestFailing.has(id));
  const newlyFailing = [...newTests, ...newDiagnostics];
  if (newlyFailing.length) {
    return { verdict: 'regression', newlyFailing, fixed: [], note: `broke ${listForNote(newlyFailing)}` };
  }
  const fixedTests = best.failing.filter((id) => !nextFailing.has(id));
  const fixedDiags = best.diagnostics.filter((d) => !nextDiag.has(diagnosticKey(d))).map(describeDiagnostic);
  const fixed = [...fixedTests, ...fixedDiags];
  if (fixed.length) return { verdict: 'progress', newlyFailing: [], fixed, note: `fixed ${listForNote(fixed)}` };
  return { verdict: 'no-progress', newlyFailing: [], fixed: [], note: `still ${next.failing.length} failing, ${next.diagnostics.length} type errors` };
}

/** Fewer failing tests + diagnostics is better; ties keep the earlier state (contract: "best state"). */
export function isBetter(candidate: WitnessSummary, best: WitnessSummary): boolean {
  if (candidate.loadError !== best.loadError) return !candidate.loadError;
  return candidate.failing.length + candidate.diagnostics.length < best.failing.length + best.diagnostics.length;
}

function describeDiagnostic(d: { file: string; line: number; code: string; message: string }): string {
  return `${d.file}:${d.line} ${d.code} ${d.message.split('\n')[0]}`;
}

function listForNote(items: string[]): string {
  const shown = items.slice(0, 3).map((s) => `\`${s}\``).join(', ');
  return items.length > 3 ? `${shown} and ${items.length - 3} more` : shown;
}
