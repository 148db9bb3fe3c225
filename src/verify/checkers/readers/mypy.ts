// mypy's text output ("file:line[:col]: error: message  [code]") and its summary line, which says how many source
// files it checked. Notes are kept for people; they never count.
import type { CheckerDiagnostic, CheckerReader, Severity } from '../checkerTypes';
import { makeReport, sample, workspacePath } from './readerTools';

// --show-error-end adds ":endline:endcol"; the code is the last "  [code]" (absent with --hide-error-codes).
const LINE = /^(.+?\.pyi?):(\d+)(?::(\d+))?(?::\d+:\d+)?: (error|warning|note): (.*?)(?: {2}\[([a-z0-9-]+)\])?$/;
const FOUND = /^Found \d+ errors? in \d+ files? \(checked (\d+) source files?\)$/;
const SUCCESS = /^Success: no issues found in (\d+) source files?$/;
const STOPPED = /^Found \d+ errors? in \d+ files? \(errors prevented further checking\)$/;

const SEVERITY: Record<string, Severity> = { error: 'error', warning: 'warning', note: 'info' };

export const mypyReader: CheckerReader = {
  format: 'mypy',
  tool: 'mypy',
  silentWhenClean: false,

  detect(text) {
    let score = 0;
    for (const line of sample(text).split('\n')) {
      const l = line.trimEnd();
      if (FOUND.test(l) || SUCCESS.test(l) || STOPPED.test(l)) return 0.95;
      const m = LINE.exec(l);
      if (m) score += m[6] ? 0.3 : 0.1;
      if (score >= 0.9) break;
    }
    return Math.min(score, 0.9);
  },

  read(text, opts) {
    const all: CheckerDiagnostic[] = [];
    let checkedCount: number | null = null;
    let summary = false;
    for (const raw of text.split('\n')) {
      const line = raw.trimEnd();
      const count = FOUND.exec(line) ?? SUCCESS.exec(line);
      if (count) {
        checkedCount = Number(count[1]);
        summary = true;
        continue;
      }
      if (STOPPED.test(line)) {
        summary = true;
        continue;
      }
      const m = LINE.exec(line);
      if (!m) continue;
      all.push({
        file: workspacePath(m[1], opts.cwd),
        line: Number(m[2]),
        column: m[3] ? Number(m[3]) : 0,
        source: 'mypy',
        code: m[6] ?? '',
        message: m[5],
        severity: SEVERITY[m[4]],
      });
    }
    // Without its summary line mypy did not finish (or this is not mypy): errors read so far are not the whole story.
    if (!summary) return { ok: false, reason: 'it has no mypy summary line ("Found N errors…" or "Success: …")' };
    return { ok: true, report: makeReport('mypy', { all, checkedCount }, opts) };
  },
};
