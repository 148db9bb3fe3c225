// Before an edit is blamed for a test that newly fails, that test runs again on the same files: a test that passes
// on a re-run is flaky — named in the report, never counted as a regression (nor, later, as progress).
import type { Verifier } from './ports';
import type { Witness } from '../verify/types';
import { abortError } from './retry';

export interface FlakyCheck {
  /** Tests that passed in a re-run after failing on the same files. */
  flaky: string[];
  /** Re-runs made. */
  reruns: number;
}

export async function findFlaky(verifier: Verifier, ids: readonly string[], maxReruns: number, signal: AbortSignal): Promise<FlakyCheck> {
  let open = [...ids];
  const flaky: string[] = [];
  let reruns = 0;
  while (open.length > 0 && reruns < maxReruns) {
    const w = verifier.rerun ? await verifier.rerun(open, signal) : await verifier.verify(signal);
    reruns++;
    if (signal.aborted) throw abortError(signal);
    const passed = open.filter((id) => passedIn(w, id));
    flaky.push(...passed);
    open = open.filter((id) => !passed.includes(id));
  }
  return { flaky, reruns };
}

/** Passed in this run: reported and not failing where the runner names its tests, else simply not failing. */
function passedIn(w: Witness, id: string): boolean {
  if (w.timedOut || w.loadError || w.failing.includes(id)) return false;
  if (w.ran) return w.ran.includes(id) && !w.skipped.includes(id);
  return true;
}
