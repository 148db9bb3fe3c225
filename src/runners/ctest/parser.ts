// ctest's console: `Start N: name`, then `i/n Test #N: name ....   Passed` or `***Failed` (a failing test's output
// under it with --output-on-failure), `x% tests passed, k tests failed out of n` and "The following tests FAILED:".
// A test's ID is ctest's name for it, whole. What a failed build printed before ctest ran is a load error.
import type { TestStatus } from '../../ports/verifier';
import type { LineOptions, LineParser, OutputParser, ParseResult } from '../types';
import { capMessage, keepLine, parseText } from '../common/lineParser';
import { Failures, ReportedTests } from '../common/reportedTests';
import { BuildErrors, buildFailureScore, workspacePath } from '../common/cxxBuild';

const START = /^\s*Start\s+(\d+): (.*)$/;
const RESULT = /^\s*\d+\/\d+ Test\s+#(\d+): (.*?) \.+\s*(\*\*\*)?(Passed|Failed|Not Run|Timeout|Skipped|Disabled|Exception|SEGFAULT|Subprocess aborted|Child aborted|Illegal|Interrupt|Numerical|Bus error|Other)\b(.*?)\s+[\d.]+ sec$/;
const SUMMARY = /^\d+% tests passed, (\d+) tests? failed out of (\d+)$/;
const FAILED_LIST = /^The following tests FAILED:$/;
const LISTED = /^\s+(\d+) - (.*) \(([^()]*)\)$/;
// The first place a failing test's own output names (gtest's `file:line: Failure`, Catch2's `file:line: FAILED:`).
const FAILURE_AT = /^(.+?):(\d+): (?:Failure|FAILED:|error: )/;
/**
 * Unity's line per test (`tests/parse.c:361:parse_should_fail:FAIL: Expected NULL`): a FAIL is where the failure is;
 * a PASS says another test of the binary passed, and is no part of this failure (its line is a `RUN_TEST` in main).
 */
const UNITY = /^(.+?\.\w+):(\d+):([A-Za-z_]\w*):(PASS|FAIL)\b/;

export const ctestParser: OutputParser = {
  format: 'ctest',
  detect(text: string): number {
    let score = 0;
    for (const line of text.split('\n')) {
      if (/^Test project \S/.test(line)) score += 3;
      else if (RESULT.test(line)) score += 2;
      else if (SUMMARY.test(line) || /^No tests were found!!!$/.test(line)) score += 3;
      else if (START.test(line)) score += 1;
      if (score >= 6) break;
    }
    return Math.min(1, score / 6) * 0.97;
  },
  detectHinted: buildFailureScore,
  parse: (text: string, opts?: LineOptions): ParseResult => parseText(ctestLines(opts), text),
  lines: (opts?: LineOptions) => ctestLines(opts),
};

function statusOf(word: string, rest: string): TestStatus {
  if (word === 'Passed') return 'passed';
  if (word === 'Skipped' || word === 'Disabled' || (word === 'Not Run' && /Disabled/.test(rest))) return 'skipped';
  return 'failed';
}

function ctestLines(opts: LineOptions = {}): LineParser {
  const names = new Map<string, string>();
  const tests = new ReportedTests(opts.intern);
  const failures = new Failures();
  const build = new BuildErrors(opts.cwd);
  let project = false;
  let open: { id: string; status: string; lines: string[]; file?: string } | null = null;
  let inList = false;
  let summary: { failed: number; total: number } | null = null;
  const listed: Array<{ id: string; status: string }> = [];

  const close = (): void => {
    if (!open) return;
    const message = capMessage([open.status, ...open.lines].join('\n').trim());
    failures.add(open.file ? { id: open.id, file: open.file, message } : { id: open.id, message });
    open = null;
  };

  return {
    push(line: string): void {
      if (/^Test project \S/.test(line)) {
        project = true;
        return;
      }
      if (!project) {
        build.push(line);
        return;
      }
      const start = START.exec(line);
      if (start) {
        close();
        names.set(start[1], start[2]);
        return;
      }
      const result = RESULT.exec(line);
      if (result) {
        close();
        const id = names.get(result[1]) ?? result[2];
        const status = statusOf(result[4], result[5]);
        tests.add(id, status);
        if (status === 'failed') open = { id, status: `ctest: ${result[4]}${result[5]}`.trim(), lines: [] };
        return;
      }
      const s = SUMMARY.exec(line);
      if (s) {
        close();
        summary = { failed: Number(s[1]), total: Number(s[2]) };
        return;
      }
      if (FAILED_LIST.test(line)) {
        close();
        inList = true;
        return;
      }
      if (inList) {
        const item = LISTED.exec(line);
        if (item) {
          listed.push({ id: names.get(item[1]) ?? item[2], status: item[3] });
          return;
        }
        inList = false;
      }
      if (open) {
        const unity = UNITY.exec(line);
        if (unity?.[4] === 'PASS') return;
        keepLine(open.lines, line);
        const at = open.file === undefined ? FAILURE_AT.exec(line) ?? unity : null;
        if (at) open.file = workspacePath(at[1], opts.cwd);
      }
    },
    finish(): ParseResult {
      close();
      // A test named only in the closing list (its own line lost, or ctest run with -Q) still failed.
      for (const l of listed) {
        if (/^(?:Disabled|Skipped)$/.test(l.status)) continue;
        tests.fail(l.id);
        failures.add({ id: l.id, message: `ctest: ${l.status}` });
      }
      const loadErrors = build.failed && !project ? build.errors() : [];
      const ran = tests.size > 0 || summary !== null;
      const sum = summary as { failed: number; total: number } | null;
      const skipped = tests.reports('skipped');
      return {
        runner: 'ctest',
        failing: failures.list(),
        tests: project ? tests.list() : null,
        passedCount: tests.size > 0 ? tests.reports('passed') : sum ? sum.total - sum.failed : project ? 0 : null,
        failedCount: tests.size > 0 ? tests.reports('failed') : sum ? sum.failed : project ? 0 : null,
        skippedCount: ran || project ? skipped : null,
        loadError: loadErrors.length > 0,
        loadErrors,
        diagnostics: [],
      };
    },
  };
}
