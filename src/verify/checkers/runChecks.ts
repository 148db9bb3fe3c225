// Every check command of a run, one after the other (a busy machine gains nothing from running linters at once),
// reduced to what the witness needs: the errors as diagnostics with their source, what each checker checked, and a
// sentence for each checker that could not say.
import type { CheckerIdentity, Diagnostic } from '../../ports/verifier';
import type { CheckerFormat, CheckerReport } from './checkerTypes';
import { FORMAT_EXTENSIONS, FORMAT_SOURCES } from './checkerTypes';
import type { CheckSpec } from './commandChecker';
import type { CheckRunOptions } from './checkerTypes';
import { runCheck } from './commandChecker';

export interface ChecksOutcome {
  diagnostics: Diagnostic[];
  /** By check command: the files it lists as checked, where its report lists every file (ESLint). */
  checked: Record<string, string[]>;
  /** By check command: how many files it says it checked, where it says only that (pyright, mypy, oxlint, Biome). */
  checkedCounts: Record<string, number>;
  /** By check command: the source its findings carry and the files it reads. */
  checkers: Record<string, CheckerIdentity>;
  /** One sentence per check that did not report (not installed, crashed, unrecognised, timed out). */
  failures: string[];
  /** The findings as text, for the excerpt the next prompt and the panel show. */
  excerpt: string;
}

export async function runChecks(specs: readonly CheckSpec[], opts: CheckRunOptions): Promise<ChecksOutcome> {
  const out: ChecksOutcome = { diagnostics: [], checked: {}, checkedCounts: {}, checkers: {}, failures: [], excerpt: '' };
  const lines: string[] = [];
  const deadline = opts.timeoutMs ? Date.now() + opts.timeoutMs : null;
  for (const spec of specs) {
    if (opts.signal?.aborted) break;
    const timeoutMs = deadline === null ? undefined : Math.max(1000, deadline - Date.now());
    const outcome = await runCheck(spec, { ...opts, timeoutMs });
    if (!outcome.ok) {
      out.failures.push(outcome.sentence);
      lines.push(outcome.sentence);
      continue;
    }
    const { report } = outcome;
    for (const d of report.diagnostics) {
      out.diagnostics.push({ file: d.file, line: d.line, column: d.column, code: d.code, message: d.message, source: d.source });
      lines.push(`${d.file}:${d.line}:${d.column} ${d.source}${d.code ? ` ${d.code}` : ''}: ${d.message.split('\n')[0]}`);
    }
    if (report.checkedIsComplete) out.checked[spec.command] = [...new Set([...(out.checked[spec.command] ?? []), ...report.checked])].sort();
    else if (report.checkedCount !== null) out.checkedCounts[spec.command] = report.checkedCount;
    out.checkers[spec.command] = identityOf(report, spec.command);
  }
  out.excerpt = lines.join('\n');
  return out;
}

/** What a check is to the judge and the edit rules: the sources of its findings, the extensions it reads. */
export function identityOf(report: Pick<CheckerReport, 'format' | 'all'>, command: string): CheckerIdentity {
  const sources = new Set<string>(FORMAT_SOURCES[report.format] ?? []);
  if (report.format === 'cargo-json') {
    sources.add('rustc');
    if (/\bclippy\b/.test(command)) sources.add('clippy');
  }
  for (const d of report.all) sources.add(d.source);
  // A reader that reads another tool's report (PHP CS Fixer's checkstyle XML) adds that tool's files.
  const extensions = new Set<string>(FORMAT_EXTENSIONS[report.format]);
  for (const [format, named] of Object.entries(FORMAT_SOURCES) as [CheckerFormat, readonly string[]][]) {
    if (format !== report.format && report.all.some((d) => named.includes(d.source))) for (const e of FORMAT_EXTENSIONS[format]) extensions.add(e);
  }
  return { sources: [...sources].sort(), extensions: [...extensions] };
}
