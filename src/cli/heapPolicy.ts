// A run keeps its witnesses, and a suite of a million tests is a hundred megabytes of test IDs that stay for the whole
// run. V8 lets the heap grow to four times what was live at its last full collection before it collects again (when
// the collector looks slow next to a program that allocates as fast as a test log is read): 650 MB for such a run.
// Twice is plenty for a command line whose largest moments are short: about 400 MB, for a few more collections of
// tens of milliseconds each (bench:bounds, table 4).
import { setFlagsFromString } from 'node:v8';

/** Lets the heap grow to twice what was live at the last full collection, not four times. */
export function keepHeapNearLive(): void {
  try {
    setFlagsFromString('--heap-growing-percent=100');
  } catch {
    // An engine without the flag keeps its own policy: memory is then larger, never wrong.
  }
}
