// tsc's own output, through the test verifier's tsc parser, so `--check "tsc --noEmit"` reads like `--tsc`.
import { parserOf } from '../../../runners/parseOutput';
import type { CheckerReader } from '../checkerTypes';
import { makeReport, workspacePath } from './readerTools';

// The same parser `--tsc` and `greenloop parse --format tsc` read with (runners/readers/tsc.ts).
const tscParser = parserOf('tsc')!;

export const tscReader: CheckerReader = {
  format: 'tsc',
  tool: 'tsc',
  silentWhenClean: true,
  detect: (text) => tscParser.detect(text),

  read(text, opts) {
    const parsed = tscParser.parse(text);
    // An error in tsconfig or no project at all: tsc did not check the code as configured.
    if (parsed.loadError) {
      const why = parsed.diagnostics.find((d) => d.file === '' || /[jt]sconfig/.test(d.file));
      return { ok: false, reason: `tsc did not check the project (${why ? `${why.code}: ${why.message.split('\n')[0]}` : 'its configuration has errors'})` };
    }
    if (parsed.diagnostics.length === 0 && text.trim() !== '' && tscParser.detect(text) === 0) {
      return { ok: false, reason: 'it has no tsc diagnostic ("file(line,col): error TS…")' };
    }
    const all = parsed.diagnostics.map((d) => ({
      file: workspacePath(d.file, opts.cwd), line: d.line, column: d.column, source: 'tsc', code: d.code, message: d.message, severity: 'error' as const,
    }));
    return { ok: true, report: makeReport('tsc', { all }, opts) };
  },
};
