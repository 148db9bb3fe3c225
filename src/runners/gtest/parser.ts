// A GoogleTest binary's console: `[ RUN      ] Suite.Test`, then `[       OK ]`, `[  FAILED  ]` or `[  SKIPPED ]`;
// a test that started and never ended crashed the binary. A build that failed before it (`cmake --build … && ./t`)
// is a load error with its files and lines.
import type { LineOptions, LineParser, OutputParser, ParseResult } from '../types';
import { keepLine, parseText, capMessage } from '../common/lineParser';
import { Failures, ReportedTests } from '../common/reportedTests';
import { BuildErrors, buildFailureScore, workspacePath } from '../common/cxxBuild';
import { gtestId } from './names';

const RUN = /^\[ RUN {6}\] (.+)$/;
const END = /^\[ {2}(FAILED|SKIPPED) {2}\] (.+?)(?: \(\d+ ms\))?$|^\[ {7}OK \] (.+?)(?: \(\d+ ms\))?$/;
const PASSED_COUNT = /^\[ {2}PASSED {2}\] (\d+) tests?\.$/;
const FAILED_COUNT = /^\[ {2}FAILED {2}\] (\d+) tests?, listed below:$/;
const SKIPPED_COUNT = /^\[ {2}SKIPPED \] (\d+) tests?, listed below:$/;
const FAILURE_AT = /^(.+?):(\d+): (?:Failure|error: )/;
// ctest's own lines: its console quotes a gtest binary's output under each failing test.
const CTEST = /^Test project \S|^\s*\d+\/\d+ Test +#\d+: /m;

export const gtestParser: OutputParser = {
  format: 'gtest',
  detect(text: string): number {
    if (CTEST.test(text)) return 0.2;
    let score = 0;
    for (const line of text.split('\n')) {
      if (RUN.test(line)) score += 2;
      else if (END.test(line)) score += 2;
      else if (/^\[==========\] (?:Running )?\d+ tests? from \d+ test (?:suites?|cases?)/.test(line)) score += 3;
      if (score >= 6) break;
    }
    return Math.min(1, score / 6) * 0.95;
  },
  detectHinted: buildFailureScore,
  parse: (text: string, opts?: LineOptions): ParseResult => parseText(gtestLines(opts), text),
  lines: (opts?: LineOptions) => gtestLines(opts),
};

function gtestLines(opts: LineOptions = {}): LineParser {
  const tests = new ReportedTests(opts.intern);
  const failures = new Failures();
  const build = new BuildErrors(opts.cwd);
  let running: { id: string; lines: string[]; file?: string } | null = null;
  let sawRun = false;
  let passed: number | null = null;
  let failed: number | null = null;
  let skipped: number | null = null;
  let listing = false;

  return {
    push(line: string): void {
      const run = RUN.exec(line);
      if (run) {
        sawRun = true;
        listing = false;
        running = { id: gtestId(run[1]), lines: [] };
        return;
      }
      const p = PASSED_COUNT.exec(line);
      if (p) passed = Number(p[1]);
      const f = FAILED_COUNT.exec(line);
      if (f) {
        failed = Number(f[1]);
        listing = true;
      }
      const s = SKIPPED_COUNT.exec(line);
      if (s) {
        skipped = Number(s[1]);
        listing = true;
      }
      if (p || f || s) return;
      const end = END.exec(line);
      if (end) {
        const status = end[1] === 'FAILED' ? 'failed' : end[1] === 'SKIPPED' ? 'skipped' : 'passed';
        const id = gtestId(end[2] ?? end[3]);
        // The summary's list repeats each failed or skipped test: already counted.
        if (listing) return;
        tests.add(id, status);
        if (status === 'failed') {
          const own = running?.id === id ? running : null;
          const message = capMessage((own?.lines ?? []).join('\n').trim());
          failures.add(own?.file ? { id, file: own.file, message } : { id, message });
        }
        running = null;
        return;
      }
      if (running) {
        keepLine(running.lines, line);
        const at = running.file === undefined ? FAILURE_AT.exec(line) : null;
        if (at) running.file = workspacePath(at[1], opts.cwd);
        return;
      }
      if (!sawRun) build.push(line);
    },
    finish(): ParseResult {
      // A test that started and never ended took the binary down with it (a crash, an abort).
      const crashed = running as { id: string; lines: string[]; file?: string } | null;
      if (crashed) {
        tests.add(crashed.id, 'failed');
        failures.add({ id: crashed.id, message: capMessage(['the test binary stopped inside this test (a crash or an abort)', ...crashed.lines].join('\n').trim()) });
      }
      const loadErrors = build.failed && !sawRun ? build.errors() : [];
      const list = tests.list();
      return {
        runner: 'gtest',
        failing: failures.list(),
        tests: sawRun ? list : null,
        passedCount: passed ?? (sawRun ? tests.reports('passed') : null),
        failedCount: failed ?? (sawRun ? tests.reports('failed') : null),
        skippedCount: skipped ?? (sawRun ? tests.reports('skipped') : null),
        loadError: loadErrors.length > 0,
        loadErrors,
        diagnostics: [],
      };
    },
  };
}
