// A run scoped to some failing tests (LoopConfig.focus): its focus must name tests failing when it starts, so a typo
// or an already passing test is told before any attempt instead of making an instant "green".
import { listForNote } from './witnessCompare';

/** The first focused test that is not failing at the start, or null. */
export function unknownFocus(focus: readonly string[] | undefined, failing: readonly string[]): string | null {
  return focus?.find((id) => !failing.includes(id)) ?? null;
}

/** Thrown by the engine after the first test run and before any attempt: nothing was changed. */
export class FocusNotFailingError extends Error {
  constructor(id: string, failing: readonly string[]) {
    const now = failing.length ? `failing now: ${listForNote([...failing])}` : 'no test is failing now';
    super(`The focus \`${id}\` is not a failing test in this workspace (${now}).`);
    this.name = 'FocusNotFailingError';
  }
}
