// `gofmt -l`: the files whose formatting differs from gofmt's, one path a line; nothing when every file is formatted.
// Each file listed is one finding (its fixer, `gofmt -w`, rewrites exactly those files).
import type { CheckerDiagnostic, CheckerReader } from '../checkerTypes';
import { makeReport, sample, workspacePath } from './readerTools';

const GO_FILE = /^\S.*\.go$/;
export const GOFMT_MESSAGE = 'not formatted as gofmt formats it (gofmt -l lists it)';

export const gofmtReader: CheckerReader = {
  format: 'gofmt',
  tool: 'gofmt',
  silentWhenClean: true,

  detect(text) {
    const lines = sample(text).split('\n').map((l) => l.trim()).filter((l) => l !== '');
    // A bare list of Go files is gofmt -l's and nobody else's; weak on its own, enough with the command's name.
    return lines.length > 0 && lines.every((l) => GO_FILE.test(l)) ? 0.3 : 0;
  },

  read(text, opts) {
    const all: CheckerDiagnostic[] = [];
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      if (line === '') continue;
      if (!GO_FILE.test(line)) return { ok: false, reason: `it lists something that is not a Go file ("${line.slice(0, 100)}")` };
      all.push({ file: workspacePath(line, opts.cwd), line: 0, column: 0, source: 'gofmt', code: 'gofmt', message: GOFMT_MESSAGE, severity: 'error' });
    }
    return { ok: true, report: makeReport('gofmt', { all }, opts) };
  },
};
