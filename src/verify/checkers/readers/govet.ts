// `go vet`: text lines "file.go:line:col: message" under "# package" headers (type errors prefixed "vet: "), or
// with -json one JSON object per package, {package: {analyzer: [{posn, message}]}}. go vet prints nothing when
// it finds nothing. Everything it reports fails it, so every finding is an error.
import type { CheckerDiagnostic, CheckerReader } from '../checkerTypes';
import { isRecord, jsonValues, makeReport, sample, str, workspacePath } from './readerTools';

const LINE = /^(?:vet: )?(\S.*?\.go):(\d+)(?::(\d+))?: (.*)$/;
const HEADER = /^# \S+$/;
const POSN = /^(.*\.go):(\d+)(?::(\d+))?$/;
// What else go vet and the go command print: JSON reports (indented), "go: downloading …" and the like.
const KNOWN = /^(?:\s|[{}"\]]|go: |$)/;

export const goVetReader: CheckerReader = {
  format: 'go-vet',
  tool: 'go vet',
  silentWhenClean: true,

  detect(text) {
    const lines = sample(text).split('\n');
    const headers = lines.some((l) => HEADER.test(l));
    const found = lines.filter((l) => LINE.test(l)).length;
    if (headers && (found > 0 || /^\{\s*$/m.test(text) || /^\{\}$/m.test(text))) return 0.9;
    return found > 0 ? 0.6 : 0;
  },

  read(text, opts) {
    const all: CheckerDiagnostic[] = [];
    const add = (file: string, line: string, column: string | undefined, message: string, code: string): void => {
      all.push({ file: workspacePath(file, opts.cwd), line: Number(line), column: column ? Number(column) : 0, source: 'go vet', code, message, severity: 'error' });
    };
    let stranger = '';
    for (const raw of text.split('\n')) {
      const m = LINE.exec(raw.trimEnd());
      if (m) add(m[1], m[2], m[3], m[4], raw.startsWith('vet: ') ? 'typecheck' : '');
      else if (!stranger && !HEADER.test(raw) && !KNOWN.test(raw)) stranger = raw.trim();
    }
    for (const value of jsonValues(text)) {
      if (!isRecord(value)) continue;
      for (const analyzers of Object.values(value)) {
        if (!isRecord(analyzers)) continue;
        for (const [analyzer, findings] of Object.entries(analyzers)) {
          if (!Array.isArray(findings)) continue;
          for (const f of findings) {
            const at = isRecord(f) ? POSN.exec(str(f.posn)) : null;
            if (at && isRecord(f)) add(at[1], at[2], at[3], str(f.message), analyzer);
          }
        }
      }
    }
    // Silence is go vet's "clean"; other words with no finding among them are not go vet's and prove nothing.
    if (all.length === 0 && stranger) return { ok: false, reason: `it has no go vet finding and a line go vet does not print ("${stranger.slice(0, 100)}")` };
    return { ok: true, report: makeReport('go-vet', { all }, opts) };
  },
};
