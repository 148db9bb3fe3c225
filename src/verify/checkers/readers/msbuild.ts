// MSBuild's diagnostics, as `dotnet build` (and the build step of `dotnet test`) prints them:
// `path(line,col): error CS1002: ; expected [project.csproj]`, warnings alike (`warning CS8602`). A failed build
// repeats every line after "Build FAILED."; each finding counts once. The build prints nothing of the kind when clean.
// `dotnet format --verify-no-changes` prints the same lines, with its own codes beside the analyzers' (`error
// WHITESPACE: Fix whitespace formatting.`, `FINALNEWLINE`, `IMPORTS`, `warning IDE0055`).
import type { CheckerDiagnostic, CheckerReader } from '../checkerTypes';
import { makeReport, sample, workspacePath } from './readerTools';

const LINE = /^\s*(.+?)\((\d+)(?:,(\d+))?(?:,\d+,\d+)?\): (error|warning) ([A-Z]+\d*): (.*?)(?: \[([^\]]+)\])?$/;

export const msbuildReader: CheckerReader = {
  format: 'msbuild',
  tool: 'dotnet build',
  silentWhenClean: true,

  detect(text) {
    const lines = sample(text).split('\n').map((l) => l.trimEnd());
    const found = lines.filter((l) => LINE.test(l));
    if (found.some((l) => /\): (?:error|warning) [A-Z]+\d*: .* \[[^\]]+\.(?:cs|fs|vb)proj\]$/.test(l))) return 0.9;
    if (/^Build (?:succeeded|FAILED)\.$/m.test(text) || /^MSBuild version /m.test(text)) return 0.7;
    return found.length ? 0.4 : 0;
  },

  read(text, opts) {
    const all: CheckerDiagnostic[] = [];
    const seen = new Set<string>();
    for (const raw of text.split('\n')) {
      const m = LINE.exec(raw.trimEnd());
      if (!m) continue;
      const key = `${m[1]}|${m[2]}|${m[3]}|${m[5]}|${m[6]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      all.push({
        file: workspacePath(m[1], opts.cwd),
        line: Number(m[2]),
        column: m[3] ? Number(m[3]) : 0,
        source: opts.source ?? 'dotnet build',
        code: m[5],
        message: m[6],
        severity: m[4] === 'error' ? 'error' : 'warning',
      });
    }
    return { ok: true, report: makeReport('msbuild', { all }, opts) };
  },
};
