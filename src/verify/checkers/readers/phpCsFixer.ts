// PHP CS Fixer's `check` (or `fix --dry-run`) report: `--format=json` (`{"about":…,"files":[{"name":…,
// "appliedFixers":[…],"diff":…}],"time":{"total":…},"memory":…}`, the files it would change; `appliedFixers` only
// with -v) and its default txt (`   1) src/Foo.php (fixer_a, fixer_b)`, the fixers only with -v, then "Found 2 of 10
// files that can be fixed in 0.123 seconds, 12.00 MB memory used"). Texts from src/Console/Report/FixReport/
// JsonReporter.php and TextReporter.php (PHP-CS-Fixer/PHP-CS-Fixer). One finding per file and fixer, the fixer's
// name as code and its checkstyle report's message; a file whose fixers are not named (no -v) is one finding with
// no code. Only the files it would change are named; txt says how many it checked. `--format=checkstyle` is read
// by the Checkstyle reader into the same findings.
import type { CheckerDiagnostic, CheckerReader } from '../checkerTypes';
import { findJson, isRecord, makeReport, sample, str, workspacePath } from './readerTools';

export const PHP_CS_FIXER_UNNAMED = 'not formatted as PHP CS Fixer formats it (run it with -v to name its fixers)';

/** The message of one fixer's finding, as PHP CS Fixer's checkstyle and gitlab reports word it. */
export function fixerMessage(fixer: string): string {
  return `Found violation(s) of type: ${fixer}`;
}

interface FixReport {
  files: unknown[];
  time: Record<string, unknown>;
}

function isFixReport(v: unknown): v is FixReport {
  return isRecord(v) && Array.isArray(v.files) && isRecord(v.time) && typeof v.time.total === 'number' && typeof v.memory === 'number'
    && v.files.every((f) => isRecord(f) && typeof f.name === 'string');
}

// `%4d) %s`, then ` (fixer, fixer)` with -v (tagged <comment> before the console colours it).
const ENTRY = /^\s*\d+\) (.+?)(?: \((?:<comment>)?([\w\\, ]+?)(?:<\/comment>)?\))?$/;
const FOOTER = /^(?:Found|Fixed) (\d+) of (\d+) files?(?: that can be fixed)? in [\d.]+ seconds, [\d.]+ MB memory used$/;

function findings(file: string, fixers: readonly string[]): CheckerDiagnostic[] {
  const one = (code: string, message: string): CheckerDiagnostic => ({ file, line: 0, column: 0, source: 'php-cs-fixer', code, message, severity: 'error' });
  return fixers.length === 0 ? [one('', PHP_CS_FIXER_UNNAMED)] : fixers.map((f) => one(f, fixerMessage(f)));
}

export const phpCsFixerReader: CheckerReader = {
  format: 'php-cs-fixer',
  tool: 'PHP CS Fixer',
  silentWhenClean: false,

  detect(text) {
    const head = sample(text);
    if (/^\{"about":"PHP CS Fixer /m.test(head) || (/^\{"files":\[/m.test(head) && /"time":\{"total":/.test(head) && /"memory":/.test(head))) return 0.95;
    const lines = head.split('\n').map((l) => l.replace(/\u001b\[[0-9;]*m/g, '').trim());
    return lines.some((l) => FOOTER.test(l)) ? 0.9 : 0;
  },

  read(text, opts) {
    const report = findJson(text, isFixReport);
    const all: CheckerDiagnostic[] = [];
    if (report) {
      for (const f of report.files) {
        if (!isRecord(f)) continue;
        const fixers = Array.isArray(f.appliedFixers) ? f.appliedFixers.map(str).filter((s) => s !== '') : [];
        all.push(...findings(workspacePath(str(f.name), opts.cwd), fixers));
      }
      return { ok: true, report: makeReport('php-cs-fixer', { all }, opts) };
    }
    let checkedCount: number | null = null;
    let inDiff = false;
    for (const raw of text.split('\n')) {
      const line = raw.replace(/\u001b\[[0-9;]*m/g, '').replace(/<\/?comment>/g, '').replace(/\r$/, '').trimEnd();
      // A diff (--diff) sits between its begin and end markers; its lines are code, never entries.
      if (/^\s*-+ begin diff -+$/.test(line)) inDiff = true;
      else if (/^\s*-+ end diff -+$/.test(line)) inDiff = false;
      if (inDiff) continue;
      const footer = FOOTER.exec(line.trim());
      if (footer) {
        checkedCount = Number(footer[2]);
        continue;
      }
      const m = ENTRY.exec(line);
      if (!m || !/^ {0,3}\d/.test(line)) continue;
      all.push(...findings(workspacePath(m[1], opts.cwd), m[2] ? m[2].split(',').map((s) => s.trim()).filter((s) => s !== '') : []));
    }
    if (checkedCount === null) {
      return { ok: false, reason: 'it is neither the JSON report PHP CS Fixer prints with --format=json nor its txt report ending "Found N of M files that can be fixed"' };
    }
    return { ok: true, report: makeReport('php-cs-fixer', { all, checkedCount }, opts) };
  },
};
