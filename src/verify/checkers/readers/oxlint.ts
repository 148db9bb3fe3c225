// oxlint's `--format json`: the diagnostics and how many files it linted.
import type { CheckerDiagnostic, CheckerReader, Severity } from '../checkerTypes';
import { findJson, isRecord, makeReport, num, sample, str, workspacePath } from './readerTools';

interface OxlintReport {
  diagnostics: unknown[];
  number_of_files?: unknown;
}

function isOxlintReport(v: unknown): v is OxlintReport {
  return isRecord(v) && Array.isArray(v.diagnostics) && 'number_of_files' in v;
}

const SEVERITY: Record<string, Severity> = { error: 'error', warning: 'warning' };

export const oxlintReader: CheckerReader = {
  format: 'oxlint',
  tool: 'oxlint',
  silentWhenClean: false,

  detect(text) {
    const head = sample(text);
    return /^\{\s*"diagnostics":\s*\[/m.test(head) && /"number_of_files":/.test(head) ? 0.95 : 0;
  },

  read(text, opts) {
    const report = findJson(text, isOxlintReport);
    if (!report) return { ok: false, reason: 'it is not the JSON report oxlint prints with --format json' };
    const all: CheckerDiagnostic[] = [];
    for (const d of report.diagnostics) {
      if (!isRecord(d)) continue;
      const label = Array.isArray(d.labels) && isRecord(d.labels[0]) ? d.labels[0] : {};
      const span = isRecord(label.span) ? label.span : {};
      all.push({
        file: workspacePath(str(d.filename), opts.cwd),
        line: num(span.line),
        column: num(span.column),
        source: 'oxlint',
        code: str(d.code),
        message: str(d.message),
        severity: SEVERITY[str(d.severity)] ?? 'info',
      });
    }
    const count = typeof report.number_of_files === 'number' ? report.number_of_files : null;
    return { ok: true, report: makeReport('oxlint', { all, checkedCount: count }, opts) };
  },
};
