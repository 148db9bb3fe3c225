// test-unit's console and its XML report (`--runner=xml`), read by one line parser. The console, as every command that
// runs test-unit prints it by default: each fault between two rules of `=` as it happens (or numbered at the end with
// --no-show-detail-immediately), headed `Failure: test_name(Class)`, `Error: test_name(Class): Exception: message`,
// `Pending: test_name(Class): message` or `Omission: message [test_name(Class)]`, its backtrace (and a snippet of the
// code), then "N tests, N assertions, N failures, N errors, N pendings, N omissions, N notifications". The console names
// only faults; the XML names every test, its test case, its status and its backtrace. IDs are `Class > test_name`, the
// class as test-unit names it (a nested class `Outer::Inner`, a sub_test_case `Outer::its description`), the test as
// its local name (`test: a description`, a data-driven `test_x[label]`). A file Ruby could not load (a SyntaxError while
// a test file is required) kills the process before test-unit reports: a load error with the file and line it names.
import type { LoadErrorFile, TestStatus } from '../../ports/verifier';
import type { LineOptions, LineParser, OutputParser, ParseResult } from '../types';
import { capMessage, keepLine, parseText } from '../common/lineParser';
import { Failures, ReportedTests } from '../common/reportedTests';
import { trimBlankLines } from '../common/textTools';
import { continuesCrash, crashLoadError, isCrashLine, workspaceFrame } from '../common/ruby';
import { XmlStream } from './xmlStream';
import type { XmlResult } from './xmlStream';

const SUMMARY = /^(\d+) tests, (\d+) assertions, (\d+) failures, (\d+) errors, (\d+) pendings, (\d+) omissions, (\d+) notifications$/;
/** The rule around a fault shown as it happens: `=` as wide as test-unit's progress row. */
const RULE = /^={20,}$/;
/** `Failure: test_x(Class)…`, `2) Error: …` (numbered at the end of the run). */
const DETAIL = /^(?: *\d+\) )?(Failure|Error|Pending): (.*)$/;
/** `Omission: message [test_x(Class)]`: the short form of omissions and notifications. */
const SHORT = /^(?: *\d+\) )?(Omission|Notification): (.*) \[(.+\))\]$/;
const NUMBERED = /^ *\d+\) (?:Failure|Error|Pending|Omission|Notification): /;
const XML_STATUS: Record<string, TestStatus | null> = { success: 'passed', failure: 'failed', error: 'failed', omission: 'skipped', pending: 'skipped', notification: null };

export const testunitParser: OutputParser = {
  format: 'testunit',
  detect(text: string): number {
    let score = 0;
    for (const line of text.split(/\r?\n/)) {
      if (SUMMARY.test(line)) score += 4;
      else if (line === '<stream>' || line === '  <ready-test-suite>' || line === '  <start-test-suite>') score += 2;
      else if (/^Loaded suite /.test(line)) score += 2;
      else if (line === 'Started') score += 1;
      else if (DETAIL.test(line) || SHORT.test(line)) score += 1;
      if (score >= 6) break;
    }
    return Math.min(1, score / 6) * 0.95;
  },
  // A run that died while a test file was required prints only Ruby's report of the exception.
  detectHinted: (text: string): number => (text.split(/\r?\n/).some(isCrashLine) ? 0.8 : 0),
  parse: (text: string, opts?: LineOptions): ParseResult => parseText(testunitLines(opts), text),
  lines: (opts) => testunitLines(opts),
};

/**
 * `test_x(Class)` split where test-unit joined them: at the first `(` whose matching `)` ends the text or is followed by
 * `: ` (the message), and whose inside is a class (a constant first: a sub_test_case's class is `Outer::description`).
 */
export function splitTestName(text: string): { test: string; testCase: string; rest: string } | null {
  for (let open = text.indexOf('('); open > 0; open = text.indexOf('(', open + 1)) {
    let depth = 0;
    let close = -1;
    for (let k = open; k < text.length; k++) {
      if (text[k] === '(') depth++;
      else if (text[k] === ')' && --depth === 0) {
        close = k;
        break;
      }
    }
    if (close < 0) return null;
    const after = text.slice(close + 1);
    const testCase = text.slice(open + 1, close);
    if ((after === '' || after === ':' || after.startsWith(': ')) && /^[A-Z]/.test(testCase)) {
      return { test: text.slice(0, open), testCase, rest: after.replace(/^: ?/, '') };
    }
  }
  return null;
}

interface Block {
  id: string;
  failed: boolean;
  lines: string[];
}

function testunitLines(opts: LineOptions = {}): LineParser {
  const failures: Block[] = [];
  const listed = new ReportedTests(opts.intern);
  let block: Block | null = null;
  let afterRule = false;
  let summary: RegExpExecArray | null = null;
  let crash: string[] | null = null;
  const crashes: string[][] = [];
  let xml: XmlStream | null = null;

  const fromXml = (r: XmlResult): void => {
    const status = XML_STATUS[r.status];
    if (status === undefined || status === null || !r.testCase || !r.test) return;
    const id = `${r.testCase} > ${r.test}`;
    listed.add(id, status);
    if (status !== 'failed') return;
    const frames = r.backtrace.map((e) => `${e.file}:${e.line}:${e.info}`);
    failures.push({ id, failed: true, lines: [...r.detail.split('\n'), ...frames] });
  };

  const startBlock = (line: string): boolean => {
    const short = SHORT.exec(line);
    if (short) {
      const name = splitTestName(short[3]);
      if (!name) return false;
      // Omissions and notifications are no failure; an omitted test is counted by the summary.
      block = { id: `${name.testCase} > ${name.test}`, failed: false, lines: [] };
      return true;
    }
    const d = DETAIL.exec(line);
    const name = d ? splitTestName(d[2]) : null;
    if (!d || !name) return false;
    block = { id: `${name.testCase} > ${name.test}`, failed: d[1] !== 'Pending', lines: name.rest ? [name.rest] : [] };
    if (block.failed) failures.push(block);
    return true;
  };

  return {
    push(line: string): void {
      if (xml) {
        if (isCrashLine(line) && !xml.inText) {
          crash = [line];
          crashes.push(crash);
          return;
        }
        xml.push(line);
        return;
      }
      if (line === '<stream>' && !block) {
        xml = new XmlStream(fromXml);
        xml.push(line);
        return;
      }
      const sum = SUMMARY.exec(line);
      if (sum) {
        summary = sum;
        block = null;
        return;
      }
      if (crash) {
        if (continuesCrash(crash, line, /^(?:rake aborted!|Loaded suite |Started$)/)) return;
        crash = null;
      }
      if (RULE.test(line)) {
        // The rule before a fault's details, or the one after them.
        afterRule = !block;
        block = null;
        return;
      }
      if (afterRule) {
        afterRule = false;
        if (startBlock(line)) return;
      }
      if (NUMBERED.test(line) && startBlock(line)) return;
      if (/^Finished in [\d.e-]+ seconds\.$/.test(line) || /^(?:Omissions|Notifications):$/.test(line)) {
        block = null;
        return;
      }
      if (block) {
        keepLine(block.lines, line);
        return;
      }
      if (isCrashLine(line)) {
        crash = [line];
        crashes.push(crash);
      }
    },

    finish(): ParseResult {
      const failing = new Failures();
      for (const f of failures) {
        const lines = trimBlankLines(f.lines);
        // The test's file: the first frame of its backtrace in a test file of the workspace (the code's frames come first).
        const file = workspaceFrame(lines, opts.cwd, isTestFile)?.file;
        failing.add({ id: f.id, ...(file ? { file } : {}), message: capMessage(messageFirst(lines).join('\n')) });
        listed.fail(f.id);
      }
      const loadErrors: LoadErrorFile[] = crashes.map((c) => crashLoadError(c, opts.cwd));
      const x = xml as XmlStream | null;
      if (x) {
        const tests = listed.list();
        const count = (s: TestStatus): number => tests.filter((t) => t.status === s).length;
        return {
          runner: 'testunit',
          failing: failing.list(),
          tests,
          passedCount: count('passed'),
          failedCount: count('failed'),
          skippedCount: count('skipped'),
          loadError: loadErrors.length > 0,
          loadErrors: loadErrors.filter((e) => e.file !== ''),
          diagnostics: [],
          ...(x.finished || loadErrors.length ? {} : { stoppedEarly: "test-unit's XML report ended before the run did (the process was stopped or crashed)" }),
        };
      }
      const s = summary as RegExpExecArray | null;
      const ran = s ? Number(s[1]) : null;
      const failed = s ? Number(s[3]) + Number(s[4]) : null;
      const skipped = s ? Number(s[5]) + Number(s[6]) : null;
      return {
        runner: 'testunit',
        failing: failing.list(),
        tests: null,
        passedCount: ran !== null ? Math.max(0, ran - failed! - skipped!) : null,
        failedCount: failed,
        skippedCount: skipped,
        loadError: loadErrors.length > 0,
        loadErrors: loadErrors.filter((e) => e.file !== ''),
        diagnostics: [],
      };
    },
  };
}

/** A backtrace frame test-unit prints (`test/x.rb:12:in `m'`, `<internal:kernel>:173:in `Float'`). */
const FRAME = /^(?:<internal:[^>]+>|[^\s:]+\.rb):\d+:in\b/;
/** A line of the code snippet test-unit shows under a frame (`  => 12:     assert_equal(…)`). */
const SNIPPET = /^ +(?:=> +)?\d+: /;

/** What the test said first, then where (its frames and the code test-unit showed): a failure prints its place first. */
function messageFirst(lines: readonly string[]): string[] {
  const said: string[] = [];
  const where: string[] = [];
  let inWhere = false;
  for (const l of lines) {
    inWhere = FRAME.test(l) || (inWhere && SNIPPET.test(l));
    (inWhere ? where : said).push(l);
  }
  return [...trimBlankLines(said), ...where];
}

function isTestFile(file: string): boolean {
  return /(?:^|\/)test\/|_test\.rb$|(?:^|\/)test_[^/]*\.rb$/.test(file);
}
