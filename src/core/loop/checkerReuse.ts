// A checker runs only after an attempt changed a file it sees. tsc's verdict depends on nothing but the files it
// checks, its config and the libraries it reads: when an edit touched none of them (a Python file, a stylesheet, a
// README in a TypeScript project), its findings on the state the attempt started from are its findings now, carried
// over instead of checked again.
import type { WitnessSummary } from '../../ports/runState';
import type { SnapshotRef } from '../../ports/snapshots';
import type { LoopContext } from './loopContext';

/** Anything tsc could pick up by itself (an `include` glob, `allowJs`, `resolveJsonModule`), listed or not. */
const TSC_CAN_SEE = /\.(?:[cm]?[jt]sx?|json|json5)$/i;

/** The checkers whose findings on `from` still hold after the change from `from` to `after`. */
export async function unchangedCheckers(ctx: LoopContext, from: Readonly<{ snapshot: string; witness: WitnessSummary }>, after: SnapshotRef): Promise<string[]> {
  // An agent may change what the snapshots do not record (node_modules, its type definitions): tsc always runs then.
  if (ctx.deps.actor.editsWorkspace) return [];
  const seen = from.witness.checked?.tsc;
  // Only a whole-suite measurement of the state the attempt started from can be carried over.
  if (!seen || from.witness.scope === 'targeted' || from.witness.unmeasured || from.witness.checkFailures?.length) return [];
  const changed = await ctx.deps.snapshots.changedBetween(from.snapshot, after.id);
  const listed = new Set(seen);
  return changed.some((p) => listed.has(p) || TSC_CAN_SEE.test(p)) ? [] : ['tsc'];
}

/** The witness of a run that skipped these checkers, with their findings on the earlier state put back. */
export function carryOver(now: WitnessSummary, from: WitnessSummary, sources: readonly string[]): WitnessSummary {
  if (sources.length === 0) return now;
  const kept = from.diagnostics.filter((d) => d.source !== undefined && sources.includes(d.source));
  const checked = { ...now.checked };
  for (const s of sources) if (from.checked?.[s]) checked[s] = from.checked[s];
  return { ...now, diagnostics: [...now.diagnostics, ...kept], checked, green: now.green && kept.length === 0 };
}
