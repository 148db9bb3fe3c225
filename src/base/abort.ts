// Cancellation, told apart from failure: every layer that waits or runs something stops with the same AbortError.

/** An abort is a cancellation, never a failure to retry: callers tell them apart with this. */
export function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || (err as { code?: string }).code === 'ABORT_ERR');
}

export function abortError(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && isAbortError(reason)) return reason;
  const err = new Error('The operation was cancelled.');
  err.name = 'AbortError';
  return err;
}
