// The time budget as a deadline: one signal that aborts whatever is in flight (model call, agent, test run) when
// the person cancels or when the budget runs out, and remembers which of the two it was.
import type { Clock } from '../../../ports/clock';
import { abortError } from '../../../base/abort';

/** Thrown (or used as an abort reason) when the time budget ran out; the engine turns it into `budget-time`. */
export class DeadlineExceeded extends Error {
  constructor(message = 'The time budget ran out.') {
    super(message);
    this.name = 'DeadlineExceeded';
  }
}

export class RunDeadline {
  private readonly controller = new AbortController();
  private readonly timer = new AbortController();
  private exceeded = false;
  private readonly onOuterAbort = () => this.controller.abort(abortError(this.outer));

  /** `at` is a clock time in ms, or null for no time budget. */
  constructor(private readonly clock: Clock, private readonly outer: AbortSignal, private at: number | null) {
    if (outer.aborted) this.controller.abort(abortError(outer));
    else outer.addEventListener('abort', this.onOuterAbort, { once: true });
    this.arm();
  }

  /** Aborts on the person's cancel or at the deadline; pass it to everything that can take long. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True once the deadline (not the person) stopped the run. */
  get expired(): boolean {
    return this.exceeded || (this.at !== null && !this.outer.aborted && this.clock.now() >= this.at);
  }

  /** Milliseconds left; Infinity without a time budget. */
  remainingMs(): number {
    return this.at === null ? Infinity : Math.max(0, this.at - this.clock.now());
  }

  dispose(): void {
    this.timer.abort();
    this.outer.removeEventListener('abort', this.onOuterAbort);
  }

  private arm(): void {
    if (this.at === null) return;
    const wait = this.at - this.clock.now();
    this.clock.sleep(Math.max(0, wait), this.timer.signal).then(
      () => {
        if (this.outer.aborted || this.controller.signal.aborted) return;
        this.exceeded = true;
        const reason = new DeadlineExceeded();
        // Callers tell a cancellation from a failure by its name; a deadline aborts the same way.
        reason.name = 'AbortError';
        this.controller.abort(reason);
      },
      () => undefined,
    );
  }
}
