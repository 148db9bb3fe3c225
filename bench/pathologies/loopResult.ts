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
}
