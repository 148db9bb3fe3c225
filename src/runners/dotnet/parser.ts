// dotnet test's console (VSTest's console logger, minimal and normal verbosity): `  Failed <display name> [3 ms]`,
// its "Error Message:" and "Stack Trace:", `  Passed`/`  Skipped` lines at normal verbosity, the per-assembly summary
// (`Failed!  - Failed:     2, Passed:    12, Skipped:     0, Total:    14, …`, or "Total tests: 14 / Passed: 12 / …"),
// and the build's own errors (`src/Money.cs(12,5): error CS1002: ; expected [src/Ledger.csproj]`): a load error with the
// file and line. NUnit and MSTest print the method alone; its class is read from the test's own stack frame.
import type { LoadErrorFile } from '../../ports/verifier';
import type { LineParser, OutputParser, ParseResult } from '../types';
import { keepLine, parseText } from '../common/lineParser';
import { Failures, ReportedTests } from '../common/reportedTests';
import { trimBlankLines } from '../common/textTools';
import { dotnetId, splitDisplayName } from './ids';

const RESULT = /^\s{2}(Failed|Passed|Skipped) (.+?) \[(?:< ?)?\d[^\]]*\]$/;
const SKIPPED_BARE = /^\s{2}Skipped (.+)$/;
const COMPACT = /^(Passed|Failed)!\s+-\s+Failed:\s+(\d+),\s+Passed:\s+(\d+),\s+Skipped:\s+(\d+),\s+Total:\s+(\d+)/;
const TOTAL = /^Total tests: (\d+)$/;
const COUNT = /^\s+(Passed|Failed|Skipped): (\d+)$/;
// MSBuild: `path(line,col): error CODE: message [project]`, and `MSBUILD : error MSB1009: …` with no file.
const BUILD_ERROR = /^\s*(.+?)\((\d+)(?:,(\d+))?(?:,\d+,\d+)?\): error ([A-Z]+\d+): (.*?)(?: \[([^\]]+)\])?$/;
const MSBUILD_ERROR = /^\s*(MSBUILD|[^\s:]+\.(?:cs|fs|vb)proj|[^\s:]+\.sln) : error ([A-Z]+\d+): (.*?)(?: \[([^\]]+)\])?$/;
const ABORTED = /^The active test run was aborted\. Reason: (.*)$/;
const FRAME = /^\s*at (.+?)\.([A-Za-z_]\w*)\((.*?)\)(?: in (.+):line (\d+))?$/;
const SECTION = /^\s{2}(Error Message|Stack Trace|Standard Output Messages|Standard Error Messages):$/;

interface Current {
  display: string;
  lines: string[];
  frames: Array<{ className: string; method: string; file?: string }>;
}

function dotnetLines(): LineParser {
  const failing = new Failures();
  const reported = new ReportedTests();
  const loadErrors: LoadErrorFile[] = [];
  const seenErrors = new Set<string>();
  let loadError = false;
  let current: Current | null = null;
  let named = false;
  let compact: { failed: number; passed: number; skipped: number } | null = null;
  let detailed: Record<string, number> | null = null;
  let testRun = false;

  const idOf = (display: string, frames: Current['frames']): { id: string; file?: string } => {
    const split = splitDisplayName(display);
    if (split.className) {
      // xUnit: the full name; the stack frame of `Ns.Class.Method` names the file (a nested class's frame has a dot).
      const frame = frames.find((f) => f.method === split.method.replace(/\(.*$/s, '') && f.className === split.className.replace(/\+/g, '.'));
      return { id: dotnetId(split.className, display), file: frame?.file };
    }
    // NUnit, MSTest: the method alone; the frame that runs it names its class (the deepest one, the test's own).
    const method = display.replace(/\s*\(.*$/s, '');
    const frame = [...frames].reverse().find((f) => f.method === method && !/^(System|Microsoft|NUnit|Xunit)\./.test(f.className));
    return frame ? { id: [...frame.className.split('+'), display].join(' > '), file: frame.file } : { id: display };
  };

  const close = (): void => {
    if (!current) return;
    const c = current;
    current = null;
    const { id, file } = idOf(c.display, c.frames);
    const message = trimBlankLines(c.lines).join('\n');
    failing.add(file ? { id, file, message } : { id, message });
    reported.add(id, 'failed');
  };

  return {
    push(line: string): void {
      const result = RESULT.exec(line) ?? (SKIPPED_BARE.test(line) ? ['', 'Skipped', SKIPPED_BARE.exec(line)![1]] : null);
      if (result) {
        close();
        named = true;
        if (result[1] === 'Failed') current = { display: result[2], lines: [], frames: [] };
        else {
          const split = splitDisplayName(result[2]);
          reported.add(split.className ? dotnetId(split.className, result[2]) : result[2], result[1] === 'Passed' ? 'passed' : 'skipped');
        }
        return;
      }
      const build = BUILD_ERROR.exec(line);
      if (build) {
        close();
        loadError = true;
        const key = `${build[1]}:${build[2]}:${build[4]}`;
        if (!seenErrors.has(key)) {
          seenErrors.add(key);
          loadErrors.push({ file: build[1], line: Number(build[2]), message: `error ${build[4]}: ${build[5]}` });
        }
        return;
      }
      const msbuild = MSBUILD_ERROR.exec(line);
      if (msbuild) {
        close();
        loadError = true;
        const key = `${msbuild[1]}::${msbuild[2]}`;
        if (!seenErrors.has(key)) {
          seenErrors.add(key);
          loadErrors.push({ file: msbuild[4] ?? msbuild[1], message: `error ${msbuild[2]}: ${msbuild[3]}` });
        }
        return;
      }
      const aborted = ABORTED.exec(line);
      if (aborted) {
        close();
        loadError = true;
        loadErrors.push({ file: 'test host', message: line });
        return;
      }
      const sum = COMPACT.exec(line);
      if (sum) {
        close();
        testRun = true;
        compact ??= { failed: 0, passed: 0, skipped: 0 };
        compact.failed += Number(sum[2]);
        compact.passed += Number(sum[3]);
        compact.skipped += Number(sum[4]);
        return;
      }
      if (TOTAL.test(line)) {
        close();
        testRun = true;
        detailed ??= {};
        return;
      }
      const count = COUNT.exec(line);
      if (count && detailed && !current) {
        detailed[count[1]] = (detailed[count[1]] ?? 0) + Number(count[2]);
        return;
      }
      if (/^Test Run (?:Failed|Successful|Aborted)\.$/.test(line) || /^Results File: /.test(line)) {
        close();
        return;
      }
      if (current) {
        if (SECTION.test(line)) {
          if (/Stack Trace/.test(line)) current.lines.push('Stack Trace:');
          return;
        }
        const frame = FRAME.exec(line);
        if (frame) current.frames.push({ className: frame[1], method: frame[2], file: frame[4] });
        // Messages are indented by three, frames by five (the first) or three: one level of indent dropped.
        keepLine(current.lines, line.replace(/^ {3}/, ''));
      }
    },
    finish(): ParseResult {
      close();
      const failed = failing.size;
      let passed: number | null = null;
      let skipped: number | null = null;
      if (compact) {
        passed = compact.passed;
        skipped = compact.skipped;
      } else if (detailed) {
        passed = detailed.Passed ?? 0;
        skipped = detailed.Skipped ?? 0;
      }
      return {
        runner: 'dotnet',
        failing: failing.list(),
        // Passed tests are named only at normal verbosity; the summary's counts say how many ran either way.
        tests: named && testRun && reported.list().length === (passed ?? 0) + failed + (skipped ?? 0) ? reported.list() : null,
        passedCount: passed,
        failedCount: testRun || failed ? failed : null,
        skippedCount: skipped,
        loadError,
        loadErrors,
        diagnostics: [],
      };
    },
  };
}

export const dotnetParser: OutputParser = {
  format: 'dotnet',
  detect(text: string): number {
    const head = text.slice(0, 65536);
    if (/^Microsoft \(R\) Test Execution Command Line Tool Version/m.test(head)) return 0.98;
    if (/^(?:Passed|Failed)!\s+-\s+Failed:\s+\d+, Passed:/m.test(text)) return 0.95;
    if (/^\s{2}Failed \S.* \[[^\]]+\]$/m.test(head) && /^\s{2}Error Message:$/m.test(head)) return 0.9;
    // A build that failed before any test ran: MSBuild's errors, each naming its project.
    if (/\): error CS\d{4}: .* \[[^\]]+\.csproj\]$/m.test(head)) return 0.85;
    return 0;
  },
  detectHinted: (text: string): number => (/: error [A-Z]+\d+: /m.test(text.slice(0, 65536)) ? 0.9 : 0),
  parse: (text: string): ParseResult => parseText(dotnetLines(), text),
  lines: () => dotnetLines(),
};
