// Catch2's console and its `-r xml` report. The console prints a block per failure, headed by the test case and its
// sections, one per line, indented two spaces a level, between rules of dashes; passing test cases only count in the
// closing `test cases: 5 | 3 passed | 2 failed` (or `All tests passed (…)`). The XML report nests <Section> in
// <TestCase>; a failed <Expression>, an <Exception> or a <FatalErrorCondition> fails the section path it sits in.
// IDs: `test case > section > section`. A build that failed before the binary ran is a load error.
import type { LineOptions, LineParser, OutputParser, ParseResult } from '../types';
import { capMessage, keepLine, parseText } from '../common/lineParser';
import { Failures, ReportedTests } from '../common/reportedTests';
import { BuildErrors, buildFailureScore, workspacePath } from '../common/cxxBuild';

const DASHES = /^-{79}$/;
const DOTS = /^\.{79}$/;
const EQUALS = /^={79}$/;
const FAILED_AT = /^(.+?):(\d+): FAILED:$/;
const SUMMARY = /^test cases:\s+(\d+)\s+\|(?:\s+(\d+) passed\s*\|?)?(?:\s+(\d+) failed(?: as expected)?\s*\|?)?(?:\s+(\d+) skipped)?/;
const ALL_PASSED = /^All tests passed \((\d+) assertions? in (\d+) test cases?\)$/;
const CTEST = /^Test project \S|^\s*\d+\/\d+ Test +#\d+: /m;
const XML_ROOT = /<(?:Catch|Catch2TestRun)\b[^>]*>/;

export const catch2Parser: OutputParser = {
  format: 'catch2',
  detect(text: string): number {
    if (XML_ROOT.test(text.slice(0, 65536)) && /<TestCase\b/.test(text)) return 0.97;
    if (CTEST.test(text)) return 0.2;
    let score = 0;
    for (const line of text.split('\n')) {
      if (/is a Catch2? v\d+\.\d+\.\d+ host application\.$/.test(line)) score += 4;
      else if (SUMMARY.test(line) || ALL_PASSED.test(line)) score += 3;
      else if (FAILED_AT.test(line)) score += 1;
      if (score >= 6) break;
    }
    return Math.min(1, score / 6) * 0.95;
  },
  detectHinted: buildFailureScore,
  parse(text: string, opts?: LineOptions): ParseResult {
    const xml = XML_ROOT.exec(text);
    return xml ? parseCatchXml(text.slice(xml.index), opts) : parseText(catch2Lines(opts), text);
  },
  lines: (opts?: LineOptions) => catch2Lines(opts),
};

function catch2Lines(opts: LineOptions = {}): LineParser {
  const failures = new Failures();
  const build = new BuildErrors(opts.cwd);
  let catchSeen = false;
  // Where a block's header is read: after its opening dashes, until the closing ones; then its location, dots, body.
  let header: string[] | null = null;
  let block: { id: string; lines: string[]; failed: boolean; file?: string } | null = null;
  let counts: { total: number; passed: number; failed: number; skipped: number } | null = null;
  let xml: string[] | null = null;

  const close = (): void => {
    if (block?.failed) {
      const message = capMessage(block.lines.join('\n').trim());
      failures.add(block.file ? { id: block.id, file: block.file, message } : { id: block.id, message });
    }
    block = null;
  };

  return {
    push(line: string): void {
      if (xml) {
        xml.push(line);
        return;
      }
      if (XML_ROOT.test(line)) {
        xml = [line];
        return;
      }
      if (/is a Catch2? v\d+\.\d+\.\d+ host application\.$/.test(line)) catchSeen = true;
      if (DASHES.test(line)) {
        if (header === null) {
          close();
          header = [];
        } else {
          block = { id: idOf(header), lines: [], failed: false };
          header = null;
        }
        catchSeen = true;
        return;
      }
      if (header !== null) {
        header.push(line);
        return;
      }
      if (EQUALS.test(line)) {
        close();
        return;
      }
      const summary = SUMMARY.exec(line);
      if (summary) {
        const failed = Number(summary[3] ?? 0);
        const skipped = Number(summary[4] ?? 0);
        const total = Number(summary[1]);
        counts = { total, passed: summary[2] !== undefined ? Number(summary[2]) : total - failed - skipped, failed, skipped };
        catchSeen = true;
        return;
      }
      const all = ALL_PASSED.exec(line);
      if (all) {
        counts = { total: Number(all[2]), passed: Number(all[2]), failed: 0, skipped: 0 };
        catchSeen = true;
        return;
      }
      if (block) {
        if (DOTS.test(line) && block.lines.length <= 1) {
          block.lines = [];
          return;
        }
        const at = FAILED_AT.exec(line);
        if (at || /^\S.*:\d+: (?:FAILED|fatal error)/.test(line)) {
          block.failed = true;
          if (at && block.file === undefined) block.file = workspacePath(at[1], opts.cwd);
        }
        keepLine(block.lines, line);
        return;
      }
      if (!catchSeen) build.push(line);
    },
    finish(): ParseResult {
      if (xml) return parseCatchXml((xml as string[]).join('\n'), opts);
      close();
      const loadErrors = build.failed && !catchSeen ? build.errors() : [];
      const c = counts as { total: number; passed: number; failed: number; skipped: number } | null;
      return {
        runner: 'catch2',
        failing: failures.list(),
        // The console lists failures only: what passed is a count.
        tests: null,
        passedCount: c ? c.passed : null,
        failedCount: c ? c.failed : null,
        skippedCount: c ? c.skipped : null,
        loadError: loadErrors.length > 0,
        loadErrors,
        diagnostics: [],
      };
    },
  };
}

/** A block's header: the test case, then its sections indented two spaces a level (a long name wraps deeper). */
function idOf(header: string[]): string {
  const parts: string[] = [];
  for (const line of header) {
    if (line.trim() === '') continue;
    const depth = (/^ */.exec(line)?.[0].length ?? 0) / 2;
    if (depth <= parts.length - 1 || parts.length === 0 || depth === parts.length) parts.push(line.trim());
    // Deeper than the next level: the previous name's wrapped rest.
    else parts[parts.length - 1] += ` ${line.trim()}`;
  }
  return parts.join(' > ');
}

const TAG = /<(\/?)(TestCase|Section|Expression|Exception|FatalErrorCondition|Failure|OverallResult|OverallResultsCases|OverallResults)\b([^>]*?)(\/?)>/g;

function attrOf(attrs: string, name: string): string | undefined {
  const m = new RegExp(`\\b${name}="([^"]*)"`).exec(attrs);
  return m ? decode(m[1]) : undefined;
}

function decode(s: string): string {
  return s.replace(/&(quot|amp|lt|gt|apos|#(\d+)|#x([0-9a-f]+));/gi, (all, e: string, dec?: string, hex?: string) =>
    dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : ({ quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" } as Record<string, string>)[e] ?? all);
}

/** Catch2's `-r xml` report: the leaf section paths, failed where a failure sits inside them. */
function parseCatchXml(text: string, opts: LineOptions = {}): ParseResult {
  const tests = new ReportedTests(opts.intern);
  const failures = new Failures();
  const path: string[] = [];
  // Per open element of the path: whether it holds a section (then it is no leaf) and the failure seen in it.
  const frames: Array<{ child: boolean; failure?: { file?: string; message: string } }> = [];
  let caseCount = { passed: 0, failed: 0 };
  let sawCase = false;
  let m: RegExpExecArray | null;
  TAG.lastIndex = 0;
  while ((m = TAG.exec(text)) !== null) {
    const [, closing, tag, attrs, selfClosing] = m;
    if ((tag === 'TestCase' || tag === 'Section') && !closing) {
      if (frames.length) frames[frames.length - 1].child = true;
      path.push(attrOf(attrs, 'name') ?? '');
      frames.push({ child: false });
      if (tag === 'TestCase') sawCase = true;
      if (!selfClosing) continue;
    }
    if ((tag === 'TestCase' || tag === 'Section') && (closing || selfClosing)) {
      const frame = frames.pop();
      const id = path.join(' > ');
      path.pop();
      if (frame && frame.failure) {
        tests.add(id, 'failed');
        const { file, message } = frame.failure;
        failures.add(file ? { id, file, message } : { id, message });
      } else if (frame && !frame.child) tests.add(id, 'passed');
      continue;
    }
    const failed = (tag === 'Expression' && !closing && attrOf(attrs, 'success') === 'false') || ((tag === 'Exception' || tag === 'FatalErrorCondition' || tag === 'Failure') && !closing);
    if (failed && frames.length) {
      const frame = frames[frames.length - 1];
      if (!frame.failure) {
        const file = attrOf(attrs, 'filename');
        const end = text.indexOf(`</${tag}>`, TAG.lastIndex);
        const body = selfClosing || end < 0 ? '' : decode(text.slice(TAG.lastIndex, end).replace(/<[^>]+>/g, '')).replace(/\n\s+/g, '\n').trim();
        const line = attrOf(attrs, 'line');
        frame.failure = { ...(file ? { file: workspacePath(file, opts.cwd) } : {}), message: capMessage(`${tag}${line ? ` at line ${line}` : ''}: ${body}`) };
      }
    }
    if (tag === 'OverallResultsCases' && !closing) {
      caseCount = { passed: Number(attrOf(attrs, 'successes') ?? 0), failed: Number(attrOf(attrs, 'failures') ?? 0) };
    }
  }
  return {
    runner: 'catch2',
    failing: failures.list(),
    tests: sawCase ? tests.list() : null,
    passedCount: sawCase ? caseCount.passed : null,
    failedCount: sawCase ? caseCount.failed : null,
    skippedCount: sawCase ? 0 : null,
    loadError: !sawCase && !/<\/(?:Catch|Catch2TestRun)>/.test(text),
    loadErrors: [],
    diagnostics: [],
  };
}
