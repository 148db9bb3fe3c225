// Errors a person caused on the command line (exit 2) versus everything else (exit 3).
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const EXIT = { green: 0, ok: 0, notGreen: 1, usage: 2, internal: 3 } as const;

export function parseNumberFlag(name: string, raw: string | undefined, opts: { min: number; integer?: boolean }): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < opts.min || (opts.integer && !Number.isInteger(value))) {
    throw new UsageError(`--${name} must be ${opts.integer ? 'a whole number' : 'a number'} of at least ${opts.min} (got "${raw}").`);
  }
  return value;
}
