// clang-tidy's console: `/abs/src/money.cpp:9:18: warning: result of integer division … [bugprone-integer-division]`
// (then the source line and a caret), `error: … [check,-warnings-as-errors]` under --warnings-as-errors, and the
// compiler's own errors as `[clang-diagnostic-error]`. Around them it prints "N warnings generated.", "Suppressed N
// warnings (N in non-user code)." and the -header-filter hint. A warning in a header is printed once per source file
// that includes it: one finding. It names the files it checked only when one fails ("Error while processing FILE.").
// It prints nothing of its own when a file has no warning at all.
import type { CheckerDiagnostic, CheckerReader } from '../checkerTypes';
import { makeReport, sample, workspacePath } from './readerTools';

const LINE = /^(.+?):(\d+):(\d+): (error|warning|note): (.*) \[([\w.-]+(?:,[\w.-]+)*)\]$/;
// The check groups clang-tidy ships (and the compiler's own diagnostics): what tells its lines from another tool's.
const CHECK = /^(?:clang-diagnostic|clang-analyzer|abseil|altera|android|boost|bugprone|cert|concurrency|cppcoreguidelines|darwin|fuchsia|google|hicpp|linuxkernel|llvm|llvmlibc|misc|modernize|mpi|objc|openmp|performance|portability|readability|zircon)-/;
const NOISE = [
  /^\d+ (?:warnings?|errors?)(?: and \d+ errors?)? generated\.$/,
  /^Suppressed \d+ warnings? \(.*\)\.$/,
  /^Use -header-filter=/,
  /^\[\d+\/\d+\] Processing file /,
  /^Error while processing (.+)\.$/,
  /^Found compiler errors?(?:\(s\))?\.$/,
];
const FAILED = /^Error while processing (.+)\.$/;
// clang-tidy's own words when it cannot start: enough to say the output is its own (and read as no report), never
// enough to outrank a reader that recognises the output.
const OWN_FAILURE = /^Error: (?:invalid configuration specified|no checks enabled)\.|^Error while trying to load a compilation database:|^<command-line-config>:/m;

function isFinding(line: string): RegExpExecArray | null {
  const m = LINE.exec(line);
  return m && m[6].split(',').some((c) => CHECK.test(c)) ? m : null;
}

export const clangTidyReader: CheckerReader = {
  format: 'clang-tidy',
  tool: 'clang-tidy',
  silentWhenClean: true,

  detect(text) {
    const lines = sample(text).split('\n').map((l) => l.trimEnd());
    if (lines.some((l) => isFinding(l))) return 0.85;
    const generated = lines.some((l) => NOISE[0].test(l));
    if (generated && lines.some((l) => NOISE[1].test(l) || NOISE[2].test(l))) return 0.6;
    return OWN_FAILURE.test(text) ? 0.1 : 0;
  },

  read(text, opts) {
    const all: CheckerDiagnostic[] = [];
    const checked = new Set<string>();
    const seen = new Set<string>();
    let known = 0;
    for (const raw of text.split('\n')) {
      const line = raw.trimEnd();
      const failed = FAILED.exec(line);
      if (failed) checked.add(workspacePath(failed[1], opts.cwd));
      if (NOISE.some((re) => re.test(line))) known++;
      const m = isFinding(line);
      if (!m || m[4] === 'note') continue;
      known++;
      const d: CheckerDiagnostic = {
        file: workspacePath(m[1], opts.cwd),
        line: Number(m[2]),
        column: Number(m[3]),
        source: 'clang-tidy',
        // "-warnings-as-errors" is how the warning became an error, not another check.
        code: m[6].split(',').filter((c) => c !== '-warnings-as-errors').join(','),
        message: m[5],
        severity: m[4] === 'error' ? 'error' : 'warning',
      };
      const key = `${d.file}:${d.line}:${d.column}:${d.code}:${d.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      all.push(d);
    }
    if (known === 0 && text.trim() !== '') {
      return { ok: false, reason: 'no line of it has the form "file:line:column: warning: message [check-name]", nor clang-tidy\'s "N warnings generated."' };
    }
    return { ok: true, report: makeReport('clang-tidy', { all, checked }, opts) };
  },
};
