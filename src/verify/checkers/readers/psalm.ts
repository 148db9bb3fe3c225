// Psalm's `--output-format=json`: one entry per issue (`[]` when there are none), its kind as `type`
// (`UndefinedVariable`), `severity` error or info. Psalm's own exit code fails on errors only, so an info issue counts
// as a warning (counted when warnings are asked for). `file_path` is the file as Psalm opened it; only files with
// issues are named.
import type { CheckerDiagnostic, CheckerReader } from '../checkerTypes';
import { findJson, isRecord, makeReport, num, sample, str, workspacePath } from './readerTools';

function isPsalmReport(v: unknown): v is Record<string, unknown>[] {
  return Array.isArray(v) && v.every((i) => isRecord(i) && typeof i.type === 'string' && typeof i.line_from === 'number' && typeof i.severity === 'string');
}

export const psalmReader: CheckerReader = {
  format: 'psalm',
  tool: 'Psalm',
  silentWhenClean: false,

  detect(text) {
    const head = sample(text);
    if (/"line_from":\d+/.test(head) && /"file_path":"/.test(head) && /"severity":"/.test(head)) return 0.95;
    // `[]` is ESLint's, pylint's and Psalm's alike: a hint, never a verdict.
    return /^\[\]\s*$/m.test(head) ? 0.1 : 0;
  },

  read(text, opts) {
    const issues = findJson(text, isPsalmReport);
    if (!issues) return { ok: false, reason: 'it is not the JSON report Psalm prints with --output-format=json' };
    const all: CheckerDiagnostic[] = issues.map((i) => ({
      file: workspacePath(str(i.file_path) || str(i.file_name), opts.cwd),
      line: num(i.line_from),
      column: num(i.column_from),
      source: 'psalm',
      code: str(i.type),
      message: str(i.message),
      severity: i.severity === 'error' ? 'error' : 'warning',
    }));
    return { ok: true, report: makeReport('psalm', { all }, opts) };
  },
};
