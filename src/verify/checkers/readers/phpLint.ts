// `php -l FILE` (one file a run before PHP 8.3; `find … -exec php -l {} \;` for a tree): "No syntax errors detected in
// FILE", or PHP's `Parse error: … in FILE on line N` (with "PHP " in front when logged to stderr) then "Errors parsing
// FILE". Every file it names was checked, so a file it stops naming has moved out of its reach.
import type { CheckerDiagnostic, CheckerReader } from '../checkerTypes';
import { makeReport, sample, workspacePath } from './readerTools';

const ERROR = /^(?:PHP )?(Parse|Fatal) error:\s+(.*) in (.+?) on line (\d+)$/;
const CLEAN = /^No syntax errors detected in (.+)$/;
const FAILED = /^Errors parsing (.+)$/;

export const phpLintReader: CheckerReader = {
  format: 'php-lint',
  tool: 'php -l',
  silentWhenClean: false,

  detect(text) {
    const lines = sample(text).split('\n').map((l) => l.trimEnd());
    if (lines.some((l) => CLEAN.test(l) || FAILED.test(l))) return 0.95;
    return lines.some((l) => ERROR.test(l)) ? 0.6 : 0;
  },

  read(text, opts) {
    const all: CheckerDiagnostic[] = [];
    const checked = new Set<string>();
    const seen = new Set<string>();
    for (const raw of text.split('\n')) {
      const line = raw.trimEnd();
      const e = ERROR.exec(line);
      if (e) {
        const file = workspacePath(e[3], opts.cwd);
        // With both display_errors and log_errors on, PHP says it twice ("PHP Parse error" and "Parse error").
        const key = `${file}:${e[4]}:${e[2]}`;
        if (!seen.has(key)) {
          seen.add(key);
          all.push({ file, line: Number(e[4]), column: 0, source: 'php -l', code: `${e[1]}Error`, message: e[2], severity: 'error' });
        }
        checked.add(file);
        continue;
      }
      const done = CLEAN.exec(line) ?? FAILED.exec(line);
      if (done) checked.add(workspacePath(done[1], opts.cwd));
    }
    if (checked.size === 0) return { ok: false, reason: 'it names no file php -l checked ("No syntax errors detected in …" or "Errors parsing …")' };
    return { ok: true, report: makeReport('php-lint', { all, checked: [...checked], checkedIsComplete: true, checkedCount: checked.size }, opts) };
  },
};
