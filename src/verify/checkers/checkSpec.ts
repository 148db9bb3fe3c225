// A check as a person writes it: `--check "CMD"`, `--check "CMD:format"`, or a greenloop.checks entry (the same
// string, or { command, format, warnings }). Read once, here, for the CLI and the extension alike.
import type { CheckSpec } from './commandChecker';
import { formatNames, parseCheckerFormat } from './readerChoice';

/** A check a person wrote that cannot be used: one sentence saying what to write instead. */
export class CheckSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckSpecError';
  }
}

/**
 * "npx eslint --format json src" or "mypy app:mypy". A format is split off only when the text after the last colon
 * names one (or is "auto"), so a command with colons of its own (`npm run lint:ci`) stays whole.
 */
export function parseCheckSpec(raw: string): CheckSpec {
  // `CMD:format:fix=FIXCMD`: everything after the first ":fix=" is the fixer, colons and all (`npm run lint:fix`).
  const at = raw.indexOf(':fix=');
  if (at < 0) return parseCheck(raw);
  const fix = raw.slice(at + ':fix='.length).trim();
  if (fix === '') throw new CheckSpecError(`The check "${raw.trim()}" names an empty fixer; write its command after ":fix=", e.g. "npx eslint --format json src:eslint:fix=npx eslint --fix src".`);
  return { ...parseCheck(raw.slice(0, at)), fix };
}

function parseCheck(raw: string): CheckSpec {
  const text = raw.trim();
  if (text === '') throw new CheckSpecError(`A check needs a command, e.g. "npx eslint --format json src" or "mypy app:mypy" (formats: ${formatNames()}).`);
  const colon = text.lastIndexOf(':');
  const tail = colon > 0 ? text.slice(colon + 1).trim() : '';
  const command = colon > 0 ? text.slice(0, colon).trim() : '';
  if (command !== '' && tail === 'auto') return { command, format: 'auto' };
  const format = command !== '' && /^[\w -]+$/.test(tail) ? parseCheckerFormat(tail) : null;
  return format ? { command, format } : { command: text };
}

/** A greenloop.checks entry: a string as above, or { command, format?, warnings?, fix? }. */
export function checkSpecFromSetting(entry: unknown): CheckSpec {
  if (typeof entry === 'string') return parseCheckSpec(entry);
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
    throw new CheckSpecError(`Each check must be a command string or { "command": …, "format": …, "warnings": …, "fix": … } (got ${JSON.stringify(entry)}).`);
  }
  const { fix, ...rest } = entry as Record<string, unknown>;
  if (fix === undefined) return checkFromObject(entry, rest);
  if (typeof fix !== 'string' || fix.trim() === '') throw new CheckSpecError(`A check's "fix" must be the fixer's command (got ${JSON.stringify(fix)}).`);
  return { ...checkFromObject(entry, rest), fix: fix.trim() };
}

function checkFromObject(entry: unknown, fields: Record<string, unknown>): CheckSpec {
  const { command, format, warnings } = fields;
  if (typeof command !== 'string' || command.trim() === '') throw new CheckSpecError(`A check needs a "command" string (got ${JSON.stringify(entry)}).`);
  if (warnings !== undefined && typeof warnings !== 'boolean') throw new CheckSpecError(`A check's "warnings" must be true or false (got ${JSON.stringify(warnings)}).`);
  if (format === undefined || format === 'auto') return { command: command.trim(), ...(format ? { format: 'auto' as const } : {}), ...(warnings ? { warnings } : {}) };
  const parsed = typeof format === 'string' ? parseCheckerFormat(format) : null;
  if (!parsed) throw new CheckSpecError(`The check "${command.trim()}" names the format ${JSON.stringify(format)}; use one of ${formatNames()}, or leave it out to detect it.`);
  return { command: command.trim(), format: parsed, ...(warnings ? { warnings } : {}) };
}
