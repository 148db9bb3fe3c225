// RuboCop's `--format json` (every file it inspected, clean ones too, so the list of checked files is whole) and its
// console, default and `--format emacs` alike: `lib/x.rb:14:7: W: [Correctable] Lint/UselessAssignment: message`
// (the default adds the source line and a caret, then "4 files inspected, 11 offenses detected"). Its severities:
// fatal and error count as errors; warning, convention and refactor as warnings (each fails rubocop's own exit
// code, as with pylint); info never counts.
import type { CheckerDiagnostic, CheckerReader, Severity } from '../checkerTypes';
import { findJson, isRecord, makeReport, num, sample, str, workspacePath } from './readerTools';

interface RubocopFile {
  path: string;
  offenses: unknown[];
}

interface RubocopReport {
  metadata: Record<string, unknown>;
  files: RubocopFile[];
  summary?: unknown;
}

function isRubocopReport(v: unknown): v is RubocopReport {
  return isRecord(v) && isRecord(v.metadata) && typeof v.metadata.rubocop_version === 'string' && Array.isArray(v.files)
    && v.files.every((f) => isRecord(f) && typeof f.path === 'string' && Array.isArray(f.offenses));
}

const SEVERITY: Record<string, Severity> = {
  fatal: 'error', error: 'error', warning: 'warning', convention: 'warning', refactor: 'warning', info: 'info',
};
const LETTER: Record<string, string> = { F: 'fatal', E: 'error', W: 'warning', C: 'convention', R: 'refactor', I: 'info' };

const LINE = /^(.+?):(\d+):(\d+): ([FEWCRI]): (?:\[(?:Correctable|Corrected|Todo)\] )?([A-Z]\w*(?:\/\w+)+): (.*)$/;
const SUMMARY = /^(\d+) files? inspected, (?:no|\d+) offenses? detected/;

export const rubocopReader: CheckerReader = {
  format: 'rubocop',
  tool: 'RuboCop',
  silentWhenClean: false,

  detect(text) {
    const head = sample(text);
    if (/"rubocop_version":"/.test(head) && /"offenses":\[/.test(head)) return 0.95;
    const lines = head.split('\n').map((l) => l.trimEnd());
    if (lines.some((l) => SUMMARY.test(l))) return 0.9;
    return lines.some((l) => LINE.test(l)) ? 0.7 : 0;
  },

  read(text, opts) {
    const report = findJson(text, isRubocopReport);
    if (report) {
      const all: CheckerDiagnostic[] = [];
      const checked: string[] = [];
      for (const f of report.files) {
        const file = workspacePath(f.path, opts.cwd);
        checked.push(file);
        for (const o of f.offenses) {
          if (!isRecord(o)) continue;
          const at = isRecord(o.location) ? o.location : {};
          const cop = str(o.cop_name);
          all.push({
            file,
            line: num(at.start_line) || num(at.line),
            column: num(at.start_column) || num(at.column),
            source: 'rubocop',
            code: cop,
            // Given files by name, RuboCop puts the cop's name in front of the message ("Lint/X: …"); it is the code.
            message: str(o.message).startsWith(`${cop}: `) ? str(o.message).slice(cop.length + 2) : str(o.message),
            severity: SEVERITY[str(o.severity)] ?? 'info',
          });
        }
      }
      return { ok: true, report: makeReport('rubocop', { all, checked, checkedIsComplete: true, checkedCount: report.files.length }, opts) };
    }
    const all: CheckerDiagnostic[] = [];
    let checkedCount: number | null = null;
    for (const raw of text.split('\n')) {
      const line = raw.trimEnd();
      const summary = SUMMARY.exec(line);
      if (summary) checkedCount = Number(summary[1]);
      const m = LINE.exec(line);
      if (!m) continue;
      all.push({
        file: workspacePath(m[1], opts.cwd),
        line: Number(m[2]),
        column: Number(m[3]),
        source: 'rubocop',
        code: m[5],
        message: m[6],
        severity: SEVERITY[LETTER[m[4]]] ?? 'info',
      });
    }
    if (all.length === 0 && checkedCount === null) {
      return { ok: false, reason: 'it is neither the JSON report RuboCop prints with --format json nor its "file:line:column: C: Cop/Name: message" lines' };
    }
    return { ok: true, report: makeReport('rubocop', { all, checkedCount }, opts) };
  },
};
