// What every checker reader needs: workspace-relative paths, the JSON report inside a terminal's mixed output, and
// one way to turn findings into a report (errors only unless warnings were asked for, stable order).
import type { CheckerDiagnostic, CheckerFormat, CheckerReport, ReadOptions } from '../checkerTypes';

/**
 * A path as the witness keys it: POSIX slashes, no "./", no file:// and relative to the workspace when it lies
 * inside it. A path outside the workspace stays absolute: it is still a file the checker checked.
 */
export function workspacePath(file: string, cwd: string): string {
  let p = file.trim();
  if (p.startsWith('file://')) {
    try {
      p = decodeURIComponent(p.slice('file://'.length));
    } catch {
      p = p.slice('file://'.length);
    }
  }
  p = p.replace(/\\/g, '/');
  const root = cwd.replace(/\\/g, '/').replace(/\/+$/, '');
  if (root && (p === root || p.startsWith(`${root}/`))) p = p.slice(root.length + 1);
  while (p.startsWith('./')) p = p.slice(2);
  return p;
}

/** Where the JSON value starting at `start` ends (one past its closing bracket), or -1 when the text ends first. */
function valueEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** How many candidate starts are tried before giving up: a report is near the top, noise is a few lines. */
const MAX_CANDIDATES = 50;

/**
 * The JSON values that start a line ("{" or "[" in the first column) in a terminal's output, in order. Reports are
 * printed that way; what surrounds them (npm's script banner, Biome's text diagnostics on stderr, go's "# pkg"
 * headers) is skipped. A value cut short (the output was truncated) is not returned.
 */
export function jsonValues(text: string): unknown[] {
  const found: unknown[] = [];
  let from = 0;
  let tries = 0;
  while (from < text.length && tries < MAX_CANDIDATES) {
    const start = nextLineStartingJson(text, from);
    if (start < 0) break;
    tries++;
    const end = valueEnd(text, start);
    if (end < 0) break;
    try {
      found.push(JSON.parse(text.slice(start, end)));
      from = end;
      tries = 0;
    } catch {
      from = start + 1;
    }
  }
  return found;
}

function nextLineStartingJson(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const atLineStart = i === 0 || text[i - 1] === '\n';
    if (atLineStart && (text[i] === '{' || text[i] === '[')) return i;
    if (!atLineStart) {
      const nl = text.indexOf('\n', i);
      if (nl < 0) return -1;
      i = nl;
    }
  }
  return -1;
}

/** The first JSON value in the output that `is` accepts. */
export function findJson<T>(text: string, is: (v: unknown) => v is T): T | null {
  for (const v of jsonValues(text)) if (is(v)) return v;
  return null;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** Cheap detection on a big output: the head, where reports begin, and the tail, where summaries end. */
export function sample(text: string, size = 64 * 1024): string {
  return text.length > 2 * size ? `${text.slice(0, size)}\n${text.slice(-size)}` : text;
}

function compare(a: CheckerDiagnostic, b: CheckerDiagnostic): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.column - b.column || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}

export interface ReportParts {
  all: CheckerDiagnostic[];
  /** Files the output names as checked, besides those with findings (which are always added). */
  checked?: Iterable<string>;
  checkedIsComplete?: boolean;
  checkedCount?: number | null;
}

/** The report: sorted findings, the counted ones filtered by severity, and every file named. */
export function makeReport(format: CheckerFormat, parts: ReportParts, opts: ReadOptions): CheckerReport {
  const all = [...parts.all].sort(compare);
  const counted = all.filter((d) => d.severity === 'error' || (opts.warnings === true && d.severity === 'warning'));
  const checked = new Set<string>(parts.checked ?? []);
  for (const d of all) if (d.file) checked.add(d.file);
  return {
    format,
    diagnostics: counted,
    all,
    checked: [...checked].sort(),
    checkedIsComplete: parts.checkedIsComplete ?? false,
    checkedCount: parts.checkedCount ?? null,
  };
}

/** The start of an output for a sentence: its first non-blank line, cut. */
export function firstLine(text: string, max = 120): string {
  const line = text.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
