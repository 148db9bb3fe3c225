// The clock port: time and waiting, so tests can run the loop's bounds without real delays.

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
