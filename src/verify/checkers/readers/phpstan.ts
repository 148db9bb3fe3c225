// PHPStan's `--error-format=json`: totals, the files with errors (`files` is `[]` when there are none) and their
// messages (`identifier` since PHPStan 1.11, the rule's name: `argument.type`), and errors that belong to no file
// (`errors`: strings). Every error counts; PHPStan has no warnings. Only files with errors are named.
import type { CheckerDiagnostic, CheckerReader } from '../checkerTypes';
import { findJson, isRecord, makeReport, num, sample, str, workspacePath } from './readerTools';

interface PhpstanReport {
  totals: Record<string, unknown>;
  files: Record<string, unknown> | unknown[];
  errors: unknown[];
}

function isPhpstanReport(v: unknown): v is PhpstanReport {
  return isRecord(v) && isRecord(v.totals) && typeof v.totals.file_errors === 'number'
    && (isRecord(v.files) || Array.isArray(v.files)) && Array.isArray(v.errors);
}

export const phpstanReader: CheckerReader = {
  format: 'phpstan',
  tool: 'PHPStan',
  silentWhenClean: false,

  detect(text) {
    return /"totals"\s*:\s*\{\s*"errors"\s*:\s*\d+\s*,\s*"file_errors"\s*:/.test(sample(text)) ? 0.95 : 0;
  },

  read(text, opts) {
    const report = findJson(text, isPhpstanReport);
    if (!report) return { ok: false, reason: 'it is not the JSON report PHPStan prints with --error-format=json' };
    const all: CheckerDiagnostic[] = [];
    const files = Array.isArray(report.files) ? {} : report.files;
    for (const [path, entry] of Object.entries(files)) {
      const file = workspacePath(path, opts.cwd);
      const messages = isRecord(entry) && Array.isArray(entry.messages) ? entry.messages : [];
      for (const m of messages) {
        if (!isRecord(m)) continue;
        all.push({ file, line: num(m.line), column: 0, source: 'phpstan', code: str(m.identifier), message: str(m.message), severity: 'error' });
      }
    }
    for (const e of report.errors) {
      if (typeof e === 'string') all.push({ file: '', line: 0, column: 0, source: 'phpstan', code: '', message: e, severity: 'error' });
    }
    return { ok: true, report: makeReport('phpstan', { all }, opts) };
  },
};
