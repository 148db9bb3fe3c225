// Errors a person caused on the command line (exit 2) versus everything else (exit 3).
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * A mistake on the command line: a UsageError (by name: the MCP server is its own bundle, with its own copy of the
 * class) or Node's parseArgs refusing a flag.
 */
export function isUsageError(err: unknown): boolean {
  return (err as Error | undefined)?.name === 'UsageError' || Boolean((err as { code?: string } | undefined)?.code?.startsWith('ERR_PARSE_ARGS'));
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
