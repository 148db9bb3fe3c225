// How a loop ended, in its own words (the judge then says what is really true of the files it left).
export interface LoopResult {
  /** The loop said "done, the tests pass". */
  claimedGreen: boolean;
  /** Why it ended: green, a stop reason, the cap, an error. */
  ended: string;
  /** Greenloop's stop reason; null for the capped loops. */
  reason: string | null;
  wallMs: number;
  log: string;
  /** The applied answers' blocks by what placed them (the report's matchedBy, summed): `exact`, `indentation`, … */
  matchedBy: Record<string, number>;
}

/** Adds `more`'s counts into `into`. */
export function addCounts(into: Record<string, number>, more: Record<string, number> | undefined): Record<string, number> {
  for (const [k, n] of Object.entries(more ?? {})) into[k] = (into[k] ?? 0) + n;
  return into;
}
