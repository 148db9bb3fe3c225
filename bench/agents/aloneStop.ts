// How a run of an agent alone is ended when it does not end by itself, as a person would press Ctrl-C: at a number of
// model requests — the measure, the same on any machine — or when the agent has sent no request for a long while,
// which only a hang does. A wall-clock limit on the whole run would race the request cap on a busy machine and
// decide the result by speed; the idle clock restarts with every request and is wide enough to never do that.
export type AloneStop = 'requests' | 'idle';

/** No model request for this long: the agent hangs (a busy 2-core machine answers in seconds, not minutes). */
export const DEFAULT_IDLE_MS = 180_000;

export class AloneStopper {
  stoppedBy: AloneStop | null = null;
  private timer: NodeJS.Timeout | undefined;
  private stopAgent: (() => void) | null = null;

  constructor(private readonly maxRequests: number, private readonly idleMs = DEFAULT_IDLE_MS) {}

  /** The agent is running: `stop` ends it (its whole process tree); the idle clock starts. */
  start(stop: () => void): void {
    this.stopAgent = stop;
    this.arm();
  }

  /** The n-th model request arrived. */
  request(n: number): void {
    if (n >= this.maxRequests) this.stop('requests');
    else this.arm();
  }

  dispose(): void {
    clearTimeout(this.timer);
  }

  private arm(): void {
    clearTimeout(this.timer);
    if (this.stoppedBy === null && this.stopAgent) this.timer = setTimeout(() => this.stop('idle'), this.idleMs);
  }

  private stop(why: AloneStop): void {
    if (this.stoppedBy !== null) return;
    this.stoppedBy = why;
    clearTimeout(this.timer);
    this.stopAgent?.();
  }
}
