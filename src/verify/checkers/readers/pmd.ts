// PMD's `--format json` and `--format xml`: the files with violations and each violation's rule, ruleset and priority
// (1 high … 5 low). Every violation counts, as PMD's own exit code (4) and maven-pmd-plugin's default failurePriority
// (5) fail on each. A file PMD could not process (a parse error) is an error of its own, `ProcessingError`; a rule
// PMD could not configure is shown, never counted. It names no clean file.
import type { CheckerDiagnostic, CheckerReader } from '../checkerTypes';
import { findJson, isRecord, makeReport, num, sample, str, workspacePath } from './readerTools';
import { attr, children, intAttr, textOf, xmlRoot } from './xmlReport';

interface PmdJson {
  formatVersion: number;
  files: unknown[];
  processingErrors?: unknown[];
  configurationErrors?: unknown[];
}

function isPmdJson(v: unknown): v is PmdJson {
  return isRecord(v) && typeof v.formatVersion === 'number' && typeof v.pmdVersion === 'string' && Array.isArray(v.files);
}

type Finding = Omit<CheckerDiagnostic, 'source' | 'severity'> & { severity?: CheckerDiagnostic['severity'] };

function fromJson(report: PmdJson, cwd: string): Finding[] {
  const out: Finding[] = [];
  for (const f of report.files) {
    if (!isRecord(f) || !Array.isArray(f.violations)) continue;
    const file = workspacePath(str(f.filename), cwd);
    for (const v of f.violations) {
      if (isRecord(v)) out.push({ file, line: num(v.beginline), column: num(v.begincolumn), code: str(v.rule), message: str(v.description) });
    }
  }
  for (const e of report.processingErrors ?? []) {
    if (isRecord(e)) out.push({ file: workspacePath(str(e.filename), cwd), line: 0, column: 0, code: 'ProcessingError', message: str(e.message) });
  }
  for (const e of report.configurationErrors ?? []) {
    if (isRecord(e)) out.push({ file: '', line: 0, column: 0, code: 'ConfigurationError', message: `${str(e.rule)}: ${str(e.message)}`, severity: 'info' });
  }
  return out;
}

function fromXml(root: Record<string, unknown>, cwd: string): Finding[] {
  const out: Finding[] = [];
  for (const f of children(root, 'file')) {
    const file = workspacePath(attr(f, 'name'), cwd);
    for (const v of children(f, 'violation')) {
      out.push({ file, line: intAttr(v, 'beginline'), column: intAttr(v, 'begincolumn'), code: attr(v, 'rule'), message: textOf(v) });
    }
  }
  for (const e of children(root, 'error')) {
    out.push({ file: workspacePath(attr(e, 'filename'), cwd), line: 0, column: 0, code: 'ProcessingError', message: attr(e, 'msg') });
  }
  for (const e of children(root, 'configerror')) {
    out.push({ file: '', line: 0, column: 0, code: 'ConfigurationError', message: `${attr(e, 'rule')}: ${attr(e, 'msg')}`, severity: 'info' });
  }
  return out;
}

export const pmdReader: CheckerReader = {
  format: 'pmd',
  tool: 'PMD',
  silentWhenClean: false,

  detect(text) {
    const head = sample(text);
    if (/"formatVersion"\s*:\s*\d+/.test(head) && /"pmdVersion"\s*:/.test(head)) return 0.95;
    return /<pmd\s[^>]*(?:pmd\.sourceforge\.net\/report|version=")/.test(head) ? 0.95 : 0;
  },

  read(text, opts) {
    const json = findJson(text, isPmdJson);
    const root = json ? null : xmlRoot(text, 'pmd', ['file', 'violation', 'error', 'configerror', 'suppressedviolation']);
    if (!json && !root) return { ok: false, reason: 'it is neither the JSON nor the XML report PMD prints with --format json or --format xml' };
    const found = json ? fromJson(json, opts.cwd) : fromXml(root!, opts.cwd);
    const all = found.map((f): CheckerDiagnostic => ({ ...f, source: 'pmd', severity: f.severity ?? 'error' }));
    return { ok: true, report: makeReport('pmd', { all }, opts) };
  },
};
