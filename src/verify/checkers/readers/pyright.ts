// pyright's `--outputjson`: diagnostics with 0-based ranges, and how many files it analysed.
import type { CheckerDiagnostic, CheckerReader, Severity } from '../checkerTypes';
import { findJson, isRecord, makeReport, num, sample, str, workspacePath } from './readerTools';

interface PyrightReport {
  generalDiagnostics: unknown[];
  summary: Record<string, unknown>;
}

function isPyrightReport(v: unknown): v is PyrightReport {
  return isRecord(v) && Array.isArray(v.generalDiagnostics) && isRecord(v.summary);
}

const SEVERITY: Record<string, Severity> = { error: 'error', warning: 'warning' };

export const pyrightReader: CheckerReader = {
  format: 'pyright',
  tool: 'pyright',
  silentWhenClean: false,

  detect(text) {
    const head = sample(text);
    return /"generalDiagnostics":\s*\[/.test(head) && /"filesAnalyzed":/.test(head) ? 0.95 : 0;
  },

  read(text, opts) {
    const report = findJson(text, isPyrightReport);
    if (!report) return { ok: false, reason: 'it is not the JSON report pyright prints with --outputjson' };
    const all: CheckerDiagnostic[] = [];
    for (const d of report.generalDiagnostics) {
      if (!isRecord(d)) continue;
      const range = isRecord(d.range) ? d.range : {};
      const start = isRecord(range.start) ? range.start : null;
      all.push({
        file: workspacePath(str(d.file), opts.cwd),
        line: start ? num(start.line) + 1 : 0,
        column: start ? num(start.character) + 1 : 0,
        source: 'pyright',
        code: str(d.rule),
        message: str(d.message),
        severity: SEVERITY[str(d.severity)] ?? 'info',
      });
    }
    const analyzed = report.summary.filesAnalyzed;
    return { ok: true, report: makeReport('pyright', { all, checkedCount: typeof analyzed === 'number' ? analyzed : null }, opts) };
  },
};
