// Did a targeted run see every test it targeted? A name pattern that matched nothing exits 0 with no failure; read
// as "all pass" it would send the loop to a whole-suite run for nothing at best, and at worst keep a broken edit.
import type { Witness } from '../../ports/verifier';

export type TargetedRead = Pick<Witness, 'ran' | 'skipped' | 'failing' | 'timedOut' | 'unreadable' | 'loadError' | 'loadErrorFiles' | 'stoppedEarly'>;

export type Coverage =
  | { complete: true; /** Targets that ran and passed. */ passing: string[]; /** Targets that ran and failed. */ failing: string[] }
  | { complete: false; why: string; /** Targets the run did not show running. */ unseen: string[] };

export function targetedCoverage(targets: readonly string[], run: TargetedRead): Coverage {
  const wanted = [...new Set(targets)].sort();
  if (run.timedOut) return { complete: false, why: 'the targeted run timed out', unseen: wanted };
  if (run.unreadable) return { complete: false, why: 'no parser could read the targeted run', unseen: wanted };
  if (run.ran === null) return { complete: false, why: 'the runner named only its failing tests, so the targeted run cannot show the others ran', unseen: wanted.filter((id) => !run.failing.includes(id)) };
  const ran = new Set(run.ran);
  const skipped = new Set(run.skipped);
  // Skipped is not run: a filter that missed a test may still list it, as skipped.
  const unseen = wanted.filter((id) => !ran.has(id) || skipped.has(id));
  if (unseen.length > 0) {
    const why = run.loadError
      ? `a test file did not load in the targeted run${run.loadErrorFiles.length ? ` (${run.loadErrorFiles.join(', ')})` : ''}`
      : run.stoppedEarly
        ? `the targeted run stopped early: ${run.stoppedEarly}`
        : `the targeted run did not run ${unseen.length === 1 ? `"${unseen[0]}"` : `${unseen.length} of the ${wanted.length} tests`}`;
    return { complete: false, why, unseen };
  }
  const failing = new Set(run.failing);
  return { complete: true, passing: wanted.filter((id) => !failing.has(id)), failing: wanted.filter((id) => failing.has(id)) };
}
