// PHP_CodeSniffer's `phpcs --report=json`: totals, then every file it checked (clean ones too, so the list of checked
// files is whole) with its messages: the sniff as `source`, `type` ERROR or WARNING.
import type { CheckerDiagnostic, CheckerReader } from '../checkerTypes';
import { findJson, isRecord, makeReport, num, sample, str, workspacePath } from './readerTools';

interface PhpcsReport {
  totals: Record<string, unknown>;
  files: Record<string, unknown>;
}

function isPhpcsReport(v: unknown): v is PhpcsReport {
  return isRecord(v) && isRecord(v.totals) && typeof v.totals.warnings === 'number' && isRecord(v.files);
}

export const phpcsReader: CheckerReader = {
  format: 'phpcs',
  tool: 'PHP_CodeSniffer',
  silentWhenClean: false,

  detect(text) {
    return /^\{"totals":\{"errors":\d+,"warnings":\d+,"fixable":\d+\},"files":\{/m.test(sample(text)) ? 0.95 : 0;
  },

  read(text, opts) {
    const report = findJson(text, isPhpcsReport);
    if (!report) return { ok: false, reason: 'it is not the JSON report phpcs prints with --report=json' };
    const all: CheckerDiagnostic[] = [];
    const checked: string[] = [];
    for (const [path, entry] of Object.entries(report.files)) {
      const file = workspacePath(path, opts.cwd);
      checked.push(file);
      const messages = isRecord(entry) && Array.isArray(entry.messages) ? entry.messages : [];
      for (const m of messages) {
        if (!isRecord(m)) continue;
        all.push({
          file,
          line: num(m.line),
          column: num(m.column),
          source: 'phpcs',
          code: str(m.source),
          message: str(m.message),
          severity: m.type === 'ERROR' ? 'error' : m.type === 'WARNING' ? 'warning' : 'info',
        });
      }
    }
    return { ok: true, report: makeReport('phpcs', { all, checked, checkedIsComplete: true, checkedCount: checked.length }, opts) };
  },
};
