// The GCC-style line most compilers and many linters can print ("file:line:col: severity: message", optionally
// ending in "[-Wflag]" or "[CODE]"): the fallback for checkers without a reader of their own. Code frames and
// "In function …" lines around it are skipped.
import type { CheckerDiagnostic, CheckerReader, Severity } from '../checkerTypes';
import { makeReport, sample, workspacePath } from './readerTools';

const LINE = /^(.+?):(\d+):(?:(\d+):)? (fatal error|error|warning|note|remark|info): (.*?)(?: \[([^\]\s]+)\])?$/;

const SEVERITY: Record<string, Severity> = { 'fatal error': 'error', error: 'error', warning: 'warning' };

export const gccReader: CheckerReader = {
  format: 'gcc',
  tool: 'a GCC-style checker',
  silentWhenClean: true,

  detect(text) {
    let found = 0;
    for (const line of sample(text).split('\n')) {
      if (LINE.test(line.trimEnd()) && ++found >= 3) break;
    }
    // Generic by design: any tool with a reader of its own outranks it.
    return found === 0 ? 0 : Math.min(0.5, 0.2 + 0.1 * found);
  },

  read(text, opts) {
    const all: CheckerDiagnostic[] = [];
    for (const raw of text.split('\n')) {
      const m = LINE.exec(raw.trimEnd());
      if (!m) continue;
      all.push({
        file: workspacePath(m[1], opts.cwd),
        line: Number(m[2]),
        column: m[3] ? Number(m[3]) : 0,
        source: opts.source ?? 'gcc',
        code: m[6] ?? '',
        message: m[5],
        severity: SEVERITY[m[4]] ?? 'info',
      });
    }
    if (all.length === 0 && text.trim() !== '') {
      return { ok: false, reason: 'no line of it has the form "file:line:column: error: message"' };
    }
    return { ok: true, report: makeReport('gcc', { all }, opts) };
  },
};
