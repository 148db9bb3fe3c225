// ESLint's `--format json`: one entry per file it linted (clean ones too, so the list of checked files is whole).
import type { CheckerDiagnostic, CheckerReader, Severity } from '../checkerTypes';
import { findJson, isRecord, makeReport, num, sample, str, workspacePath } from './readerTools';

interface EslintFile {
  filePath: string;
  messages: unknown[];
}

function isEslintReport(v: unknown): v is EslintFile[] {
  return Array.isArray(v) && v.every((f) => isRecord(f) && typeof f.filePath === 'string' && Array.isArray(f.messages));
}

const SEVERITY: Record<number, Severity> = { 2: 'error', 1: 'warning' };

export const eslintReader: CheckerReader = {
  format: 'eslint',
  tool: 'ESLint',
  silentWhenClean: false,

  detect(text) {
    const head = sample(text);
    if (/^\[\{"filePath":"/m.test(head) && /"messages":\[/.test(head)) return 0.95;
    // `[]` (nothing matched) is ESLint's and pylint's alike: a hint, never a verdict.
    return /^\[\]\s*$/m.test(head) ? 0.1 : 0;
  },

  read(text, opts) {
    const files = findJson(text, isEslintReport);
    if (!files) return { ok: false, reason: 'it is not the JSON report ESLint prints with --format json' };
    const all: CheckerDiagnostic[] = [];
    const checked: string[] = [];
    for (const f of files) {
      const file = workspacePath(f.filePath, opts.cwd);
      checked.push(file);
      for (const m of f.messages) {
        if (!isRecord(m)) continue;
        all.push({
          file,
          line: num(m.line),
          column: num(m.column),
          source: 'eslint',
          // A file ESLint could not parse has no rule; its "fatal" message is an error all the same.
          code: str(m.ruleId) || (m.fatal === true ? 'fatal' : ''),
          message: str(m.message),
          severity: SEVERITY[num(m.severity)] ?? 'info',
        });
      }
    }
    return { ok: true, report: makeReport('eslint', { all, checked, checkedIsComplete: true, checkedCount: files.length }, opts) };
  },
};
