// Casts that make a diagnostic go away without fixing it: `value as any`, `x as unknown as Money`,
// `cast(Any, value)`. Unlike a suppression a cast can be right, so it is not refused; but one added on the very line
// a baseline diagnostic was reported on is named in the report and the panel for the person to look at.
import { codeSegments, languageOf } from './codeSegments';

/** A diagnostic of the baseline, in the file before the edit. */
export interface BaselineDiagnosticAt {
  /** 1-based line in the text before the edit. */
  line: number;
  code: string;
  message: string;
  source?: string;
}

export interface CastWarning {
  file: string;
  /** 1-based line in the text after the edit. */
  line: number;
  /** The cast as written ("as any", "as unknown as Money", "cast(Any,"). */
  cast: string;
  diagnostic: BaselineDiagnosticAt;
  /** What the report and the panel say. */
  sentence: string;
}

const TS_CASTS = [/\bas\s+any\b/, /\bas\s+unknown\s+as\s+[\w.$]+(?:<[^>]*>)?/, /<any>(?=\s*[\w($[])/];
const PY_CASTS = [/\b(?:typing\.)?cast\(\s*(?:typing\.)?Any\s*,/];
// cast("Any", x): the scanner blanks strings, so the quoted form is read from the line itself.
const PY_QUOTED = /\b(?:typing\.)?cast\(\s*""\s*,/;
const PY_QUOTED_ANY = /\b(?:typing\.)?cast\(\s*(["'])Any\1\s*,/;

/** The casts in one line's code (`code`: strings blanked; `raw`: the line as written). */
function castsOn(code: string, raw: string, python: boolean): string[] {
  const found: string[] = [];
  for (const re of python ? PY_CASTS : TS_CASTS) {
    const m = re.exec(code);
    if (m) found.push(m[0].replace(/\s+/g, ' '));
  }
  const quoted = python && PY_QUOTED.test(code) ? PY_QUOTED_ANY.exec(raw) : null;
  if (quoted) found.push(quoted[0].replace(/\s+/g, ' '));
  return found;
}

function squash(line: string): string {
  return line.replace(/\s+/g, '');
}

/**
 * Casts added to `rel` on a line that had a baseline diagnostic. The line is matched with the line before the edit
 * that reads the same once the cast is taken out, or else by position when the line count is unchanged.
 */
export function castWarnings(rel: string, before: string | null, after: string, baseline: readonly BaselineDiagnosticAt[]): CastWarning[] {
  const family = languageOf(rel);
  if (before === null || baseline.length === 0 || (family !== 'js' && family !== 'python')) return [];
  const python = family === 'python';
  const beforeLines = before.split(/\r?\n/);
  const afterLines = after.split(/\r?\n/);
  // Counted per cast, as suppressions are: editing a line that already had `as any` adds none; a second one does.
  const had = new Map<string, number>();
  for (const s of codeSegments(before, family)) {
    if (s.kind === 'code') for (const c of castsOn(s.text, beforeLines[s.line - 1], python)) had.set(c, (had.get(c) ?? 0) + 1);
  }
  const oldLines = new Set(beforeLines.map(squash));
  const found: { line: number; cast: string }[] = [];
  for (const s of codeSegments(after, family)) {
    if (s.kind === 'code') for (const cast of castsOn(s.text, afterLines[s.line - 1], python)) found.push({ line: s.line, cast });
  }
  // Casts on lines that were already there are the old ones, consumed first.
  found.sort((a, b) => Number(oldLines.has(squash(afterLines[b.line - 1]))) - Number(oldLines.has(squash(afterLines[a.line - 1]))));

  const out: CastWarning[] = [];
  for (const { line, cast } of found) {
    const left = had.get(cast) ?? 0;
    if (left > 0) {
      had.set(cast, left - 1);
      continue;
    }
    const afterLine = afterLines[line - 1];
    const uncast = squash(uncastLine(afterLine, python));
    const diagnostic =
      baseline.find((d) => squash(beforeLines[d.line - 1] ?? '') === uncast) ??
      (beforeLines.length === afterLines.length ? baseline.find((d) => d.line === line) : undefined);
    if (!diagnostic) continue;
    const what = `${diagnostic.source ? `${diagnostic.source} ` : ''}${diagnostic.code ? `${diagnostic.code} ` : ''}"${firstLine(diagnostic.message)}"`;
    out.push({
      file: rel, line, cast, diagnostic,
      sentence: `${rel}:${line}: the edit adds \`${cast}\` on the line where ${what} was reported; check that the cast is right and does not just hide the error.`,
    });
  }
  return out.sort((a, b) => a.line - b.line);
}

/** The line as it might have read before the cast was added. */
function uncastLine(line: string, python: boolean): string {
  if (python) return line.replace(/\b(?:typing\.)?cast\(\s*(?:(?:typing\.)?Any|"Any"|'Any')\s*,\s*([^()]*(?:\([^()]*\)[^()]*)*)\)/, '$1');
  return line.replace(/\s+as\s+unknown\s+as\s+[\w.$]+(?:<[^>]*>)?/, '').replace(/\s+as\s+any\b/, '').replace(/<any>\s*/, '');
}

function firstLine(message: string): string {
  const line = message.split('\n')[0].trim();
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

/**
 * The cast warnings of one edit: for every file written, the casts added on lines where the state before the edit
 * had a diagnostic (`diagnostics`: that state's witness). Sentences, for the iteration's record and the report.
 */
export function castWarningsOfEdit(
  writes: ReadonlyArray<{ rel: string; before: string | null; after: string }>,
  diagnostics: ReadonlyArray<{ file: string; line: number; code: string; message: string; source?: string }>,
): string[] {
  const out: string[] = [];
  for (const w of writes) {
    const here = diagnostics.filter((d) => d.file === w.rel).map((d) => ({ line: d.line, code: d.code, message: d.message, source: d.source }));
    if (here.length) out.push(...castWarnings(w.rel, w.before, w.after, here).map((c) => c.sentence));
  }
  return out;
}
