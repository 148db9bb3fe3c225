// How a run that cannot start still answers a caller that asked for JSON. Its flags may not parse (an unknown flag, a
// flag without its value), yet `--json` and `--report FILE` — before or after the bad flag — must be honoured, so they
// are read leniently from the raw arguments; the sentence is the one stderr gets.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Redactor } from '../base/redact';
import { isUsageError } from './usageError';

/** What the answer needs from the flags: where it goes, how it is masked, and where the run would have been. */
export interface AnswerFlags {
  json?: boolean;
  report?: string;
  format?: string;
  cwd?: string;
  'api-key-env'?: string;
}

const WANTED = ['report', 'format', 'cwd', 'api-key-env'] as const;

/**
 * The answer flags of arguments that may not parse. A string flag's value is taken when it was given (`--report FILE`,
 * `--report=FILE`) and is not the next flag: `--report --json` names no file, and a report whose file is not named
 * cannot be written, so only stdout gets it.
 */
export function answerFlagsOf(argv: string[], options: NonNullable<ParseArgsConfig['options']>): AnswerFlags {
  const end = argv.indexOf('--');
  const args = end < 0 ? argv : argv.slice(0, end);
  const out: AnswerFlags = { json: args.includes('--json') };
  let tokens: ReturnType<typeof parseArgs>['tokens'] = [];
  try {
    tokens = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true }).tokens;
  } catch {
    return out;
  }
  for (const t of tokens ?? []) {
    if (t.kind !== 'option' || !(WANTED as readonly string[]).includes(t.name)) continue;
    const given = typeof t.value === 'string' && (t.inlineValue || !t.value.startsWith('-'));
    out[t.name as (typeof WANTED)[number]] = given ? t.value : undefined;
  }
  return out;
}

/** The one sentence a run that did not start ends with: stderr's line (without "greenloop: "), the JSON's reasonText. */
export function notStartedSentence(err: unknown, redactor: Redactor): string {
  const line = redactor.text(String((err as Error)?.message ?? err).split('\n')[0]);
  return isUsageError(err) ? line : `Internal error: ${line}`;
}
