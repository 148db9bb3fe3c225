// minitest's console, as `rake test` and `ruby -Itest test/x_test.rb` print it: numbered "Failure:"/"Error:" blocks
// headed `Class#test_name [file:line]:`, `-v`'s `Class#test_name = 0.00 s = F` lines, and the closing "N runs, N
// assertions, N failures, N errors, N skips". IDs are `Class > test_name`, the class as minitest names it (a spec's
// nested `describe`s are joined by `::`: `Ledger::Book::transfer > test_0001_moves money`). A file Ruby could not
// load (a SyntaxError while rake's loader requires it) kills the process before minitest reports: a load error with
// the file and line the error names.
import type { LoadErrorFile, TestStatus } from '../../ports/verifier';
import type { LineOptions, LineParser, OutputParser, ParseResult } from '../types';
import { capMessage, keepLine, parseText } from '../common/lineParser';
import { Failures, ReportedTests } from '../common/reportedTests';
import { trimBlankLines } from '../common/textTools';
import { continuesCrash, crashLoadError, isCrashLine, rubyPath, workspaceFrame } from '../common/ruby';

const SUMMARY = /^(\d+) runs, (\d+) assertions, (\d+) failures, (\d+) errors, (\d+) skips$/;
const BLOCK = /^ *\d+\) (Failure|Error|Skipped):$/;
/** `Class#test_name [file:line]:` — the class may hold spaces and `::` (a spec's describes); the test starts with `test`. */
const HEADER = /^(.*?[^:\s])#(test.*?)(?: \[(.+):(\d+)\])?:$/;
const VERBOSE = /^(.*?[^:\s])#(test.*) = [\d.]+ s = ([.FES])$/;
const VERBOSE_STATUS: Record<string, TestStatus> = { '.': 'passed', F: 'failed', E: 'failed', S: 'skipped' };

export const minitestParser: OutputParser = {
  format: 'minitest',
  detect(text: string): number {
    let score = 0;
    for (const line of text.split(/\r?\n/)) {
      if (SUMMARY.test(line)) score += 4;
      else if (line === '# Running:') score += 2;
      else if (/^Run options: .*--seed/.test(line)) score += 1;
      else if (BLOCK.test(line)) score += 1;
      if (score >= 6) break;
    }
    if (score === 0 && /rake_test_loader\.rb/.test(text) && text.split(/\r?\n/).some(isCrashLine)) return 0.6;
    return Math.min(1, score / 6) * 0.95;
  },
  // A run that died while rake's loader or ruby required a test file prints only Ruby's report of the exception.
  detectHinted: (text: string): number => (text.split(/\r?\n/).some(isCrashLine) ? 0.8 : 0),
  parse: (text: string, opts?: LineOptions): ParseResult => parseText(minitestLines(opts), text),
  lines: (opts) => minitestLines(opts),
};

interface Block {
  kind: string;
  id: string;
  file?: string;
  lines: string[];
}

function minitestLines(opts: LineOptions = {}): LineParser {
  const failures: Block[] = [];
  const listed = new ReportedTests(opts.intern);
  let listedAny = false;
  let block: Block | null = null;
  let expectHeader: string | null = null;
  let summary: RegExpExecArray | null = null;
  let crash: string[] | null = null;
  const crashes: string[][] = [];

  return {
    push(line: string): void {
      const sum = SUMMARY.exec(line);
      if (sum) {
        summary = sum;
        block = null;
        return;
      }
      if (crash) {
        if (continuesCrash(crash, line, /^(?:rake aborted!|Run options:|# Running:)/)) return;
        crash = null;
      }
      if (isCrashLine(line) && !block) {
        crash = [line];
        crashes.push(crash);
        return;
      }
      const b = BLOCK.exec(line);
      if (b) {
        expectHeader = b[1];
        block = null;
        return;
      }
      if (expectHeader) {
        const kind = expectHeader;
        expectHeader = null;
        const h = HEADER.exec(line);
        if (h) {
          const id = `${h[1]} > ${h[2]}`;
          block = { kind, id, file: h[3] ? rubyPath(h[3], opts.cwd) : undefined, lines: [] };
          if (kind !== 'Skipped') failures.push(block);
          return;
        }
      }
      if (block) {
        keepLine(block.lines, line);
        return;
      }
      const v = VERBOSE.exec(line);
      if (v) {
        listedAny = true;
        listed.add(`${v[1]} > ${v[2]}`, VERBOSE_STATUS[v[3]]);
      }
    },

    finish(): ParseResult {
      const failing = new Failures();
      for (const f of failures) {
        const lines = trimBlankLines(f.lines);
        // An error's file: its backtrace's first frame in a test file of the workspace.
        const file = f.file ?? workspaceFrame(lines, opts.cwd, isTestFile)?.file;
        failing.add({ id: f.id, ...(file ? { file } : {}), message: capMessage(lines.map((l) => l.replace(/^ {4}/, '  ')).join('\n')) });
        listed.fail(f.id);
      }
      const loadErrors: LoadErrorFile[] = crashes.map((c) => crashLoadError(c, opts.cwd));
      const s = summary as RegExpExecArray | null;
      const runs = s ? Number(s[1]) : null;
      const failed = s ? Number(s[3]) + Number(s[4]) : null;
      const skipped = s ? Number(s[5]) : null;
      return {
        runner: 'minitest',
        failing: failing.list(),
        tests: listedAny ? listed.list() : null,
        passedCount: runs !== null ? Math.max(0, runs - failed! - skipped!) : null,
        failedCount: failed,
        skippedCount: skipped,
        loadError: loadErrors.length > 0,
        loadErrors: loadErrors.filter((e) => e.file !== ''),
        diagnostics: [],
      };
    },
  };
}

function isTestFile(file: string): boolean {
  return /(?:^|\/)test\/|_test\.rb$|(?:^|\/)test_[^/]*\.rb$/.test(file);
}
