// Work that is linear but long (the blocks of a 2 MB answer, one by one) hands the event loop back every few
// milliseconds, so Stop and Ctrl-C are heard while it runs, and it ends there when they were.
import { abortError } from '../../base/abort';

/** Longest stretch of work between two hand-backs: far below what a person notices after pressing Stop. */
const SLICE_MS = 20;

export class Pacer {
  private last = performance.now();

  constructor(private readonly signal?: AbortSignal) {}

  /** Call between steps: yields when the slice is used up, and throws an AbortError once the signal fired. */
  async step(): Promise<void> {
    if (performance.now() - this.last >= SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.last = performance.now();
    }
    if (this.signal?.aborted) throw abortError(this.signal);
  }
}
