// pytest's terminal output (-q, -rA, default): failing node ids from the short summary when printed,
// otherwise from the "___ Class.test ___" sections of FAILURES/ERRORS; messages from the sections' "E" lines.
// Subtests (pytest 9's own, the pytest-subtests plugin before it: `SUBFAILED(a=1) node - msg`, `SUBFAIL node - msg`)
// are failures of their test, whatever pytest says of the test itself (passed, for a unittest subTest).
import type { FailingTest, LoadErrorFile, TestStatus } from '../../ports/verifier';
import type { LineOptions, LineParser, OutputParser, ParseResult } from '../types';
import { capMessage, keepLine, parseText } from '../common/lineParser';
import { ReportedTests } from '../common/reportedTests';

const BLOCK = /^=+ (.+?) =+$/;
const SECTION = /^_{3,} (.+?) _{3,}$/;
const LOCATION = /^([^\s:][^:]*):(\d+):(?: |$)/;
const SUMMARY = /^(FAILED|ERROR|PASSED|SKIPPED|XFAIL|XPASS) (.+)$/;
// "3 failed, 2 passed, 4 subtests passed in 0.1s": pytest 9 counts subtests with two words.
const COUNTS = /^(?:=+ )?((?:\d+ [a-z]+(?: [a-z]+)?(?:, )?)+) in [\d.]+s(?: \([^)]*\))?(?: =+)?$/;
// A conftest.py that cannot be imported stops pytest before it collects a single test.
const CONFTEST_ERROR = /^ImportError while loading conftest /;
const STOPPING = /stopping after (\d+) failures?/;
const PROGRESS = /^[.FEsxX]+\s+\[\s*\d+%\]$/;
// -v: "tests/x.py::T::test_a FAILED                                  [ 50%]"
const VERBOSE = /^(\S.*?::.+?) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(?: \(.*\))?\s+\[\s*\d+%\]$/;

// A subtest's outcome: pytest 9's words (`SUBFAILED[msg] (a=1)`) and the plugin's (`SUBFAIL`).
const SUB_SUMMARY = /^SUBFAIL(?:ED)?(?=[\s[(])(.*)$/;
const SUB_VERBOSE = /^(\S.*?::.+?) SUB(PASS|FAIL|SKIP)(?:ED|PED)?(.*?)\s+\[\s*\d+%\]$/;

/** Subtest summary lines kept per test, for its message when no section says more. */
const MAX_SUBTEST_LINES = 200;

const STATUS_OF: Record<string, TestStatus> = {
  PASSED: 'passed', XPASS: 'passed', FAILED: 'failed', ERROR: 'failed', SKIPPED: 'skipped', XFAIL: 'skipped',
};

interface Section {
  header: string;
  file?: string;
  errorLines: string[];
  /** The traceback's places as pytest prints them (`src/app.py:12: in total`), outermost first. */
  frames: string[];
}

/** Traceback places kept per failure, the innermost: a deep recursion prints hundreds. */
const MAX_FRAMES = 12;

/**
 * The failure's message with the places its traceback went through, innermost first (as a JS or Rust stack reads):
 * the E lines alone say what was wrong, not in which function of the code under test.
 */
function withFrames(message: string, section: Section | undefined): string {
  if (!section?.frames.length) return message;
  return `${message}\nTraceback, innermost first:\n${[...section.frames].reverse().join('\n')}`;
}

/** Splits "nodeid - message" at the first " - " outside the parametrize brackets. */
function splitSummary(rest: string): { nodeid: string; message: string } {
  let depth = 0;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (c === '[') depth++;
    else if (c === ']') depth = Math.max(0, depth - 1);
    else if (depth === 0 && rest.startsWith(' - ', i)) {
      return { nodeid: rest.slice(0, i), message: rest.slice(i + 3) };
    }
  }
  return { nodeid: rest, message: '' };
}

/** A subtest summary's rest, "[msg] (a=1) node - message", split after its description's bracketed groups. */
function splitSubtest(rest: string): { desc: string; nodeid: string; message: string } {
  let i = 0;
  for (;;) {
    while (rest[i] === ' ') i++;
    const open = rest[i];
    if (open !== '[' && open !== '(') break;
    const close = open === '[' ? ']' : ')';
    let depth = 0;
    for (; i < rest.length; i++) {
      if (rest[i] === open) depth++;
      else if (rest[i] === close && --depth === 0) break;
    }
    i++;
  }
  return { desc: rest.slice(0, i).trim(), ...splitSummary(rest.slice(i).trim()) };
}

/** "TestCalc.test_many (a=1, b=1)" → the test's header and the subtest's description; null for a test's own section. */
function subtestHeader(header: string): { test: string; desc: string } | null {
  let depth = 0;
  for (let i = 0; i < header.length; i++) {
    const c = header[i];
    if (c === '[') depth++;
    else if (c === ']') depth = Math.max(0, depth - 1);
    else if (c === ' ' && depth === 0) return { test: header.slice(0, i), desc: header.slice(i + 1).trim() };
  }
  return null;
}

/** The "::" parts of a node id, leaving "::" inside "[...]" alone. */
function nodeParts(nodeid: string): string[] {
  const bracket = nodeid.indexOf('[');
  const head = bracket < 0 ? nodeid : nodeid.slice(0, bracket);
  const params = bracket < 0 ? '' : nodeid.slice(bracket);
  const parts = head.split('::');
  parts[parts.length - 1] += params;
  return parts;
}

/** "Class.test[param]" as a section header names it; dots inside the brackets are not separators. */
function headerParts(header: string): string[] {
  const bracket = header.indexOf('[');
  const head = bracket < 0 ? header : header.slice(0, bracket);
  const parts = head.split('.');
  if (bracket >= 0) parts[parts.length - 1] += header.slice(bracket);
  return parts;
}

/** Removes the "E" column and the indentation the lines share, keeping the message's own layout. */
function errorMessage(lines: string[]): string {
  const bodies = lines.map((l) => l.slice(1));
  let indent = Infinity;
  for (const b of bodies) {
    if (b.trim() === '') continue;
    indent = Math.min(indent, b.length - b.trimStart().length);
  }
  if (!Number.isFinite(indent)) indent = 0;
  return bodies.map((b) => b.slice(indent).trimEnd()).join('\n').trim();
}

function countsFrom(line: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const part of line.split(', ')) {
    const m = /^(\d+) ([a-z]+)$/.exec(part.trim());
    if (m) counts[m[2]] = (counts[m[2]] ?? 0) + Number(m[1]);
  }
  return counts;
}

export const pytestParser: OutputParser = {
  format: 'pytest',

  detect(text: string): number {
    let score = 0;
    for (const line of text.split(/\r?\n/)) {
      if (/^=+ (test session starts|FAILURES|ERRORS|short test summary info) =+$/.test(line)) score += 3;
      else if (/^(FAILED|ERROR|PASSED) \S+\.py(::|$| - )/.test(line)) score += 2;
      else if (PROGRESS.test(line) || VERBOSE.test(line)) score += 2;
      else if (COUNTS.test(line) && /\b(passed|failed|error|errors|skipped|no tests ran)\b/.test(line)) score += 2;
      else if (/^!+ Interrupted: /.test(line)) score += 3;
      else if (CONFTEST_ERROR.test(line)) score += 6;
      if (score >= 6) break;
    }
    return Math.min(1, score / 6) * 0.95;
  },

  parse: (text: string): ParseResult => parseText(pytestLines(), text),
  lines: (opts) => pytestLines(opts),
};

function pytestLines(opts: LineOptions = {}): LineParser {
  // Each kept once, the first time (a section, a summary line, a -v failure), however often the output repeats it.
  const sections = new Map<string, Section>();
  const summary = new Map<string, { kind: string; nodeid: string; message: string }>();
  const verbose = new Map<string, { kind: string; nodeid: string; message: string }>();
  // Every node id printed with its outcome (-v lines, -rA summary lines); -q alone names only failures.
  const listed = new ReportedTests(opts.intern);
  let listedAny = false;
  let namesPassing = false;
  // The status each node id was listed with, by where: -v's line and the summary's are one report of one test.
  const listedBy = { verbose: new Map<string, TestStatus>(), summary: new Map<string, TestStatus>() };
  const list = (kind: string, nodeid: string, by: 'verbose' | 'summary'): void => {
    listedAny = true;
    if (kind === 'PASSED' || kind === 'XPASS') namesPassing = true;
    const status = STATUS_OF[kind];
    if (!status) return;
    const other = (by === 'verbose' ? listedBy.summary : listedBy.verbose).get(nodeid);
    listedBy[by].set(nodeid, status);
    // A test can be listed twice (FAILED in the call, ERROR at teardown): failed wins.
    if (other === undefined || (status === 'failed' && other !== 'failed')) listed.add(nodeParts(nodeid).join(' > '), status);
  };
  // Subtests that failed, by their test's node id, as the summary and -v name them.
  const subSummary = new Map<string, Array<{ desc: string; message: string }>>();
  const subVerbose = new Map<string, number>();
  let subSummaryCount = 0;
  let inFailureBlock = false;
  let current: Section | null = null;
  let counts: Record<string, number> | null = null;
  let loadError = false;
  let collectionErrors = 0;
  let stoppedEarly: string | undefined;

  return {
    push(line: string): void {
      const block = BLOCK.exec(line);
      if (block) {
        inFailureBlock = block[1] === 'FAILURES' || block[1] === 'ERRORS';
        current = null;
        const c = COUNTS.exec(line);
        if (c) counts = countsFrom(c[1]);
        return;
      }
      const c = COUNTS.exec(line);
      if (c) {
        counts = countsFrom(c[1]);
        inFailureBlock = false;
        return;
      }
      if (/^!+ Interrupted: .*error/.test(line)) {
        loadError = true;
        inFailureBlock = false;
        return;
      }
      if (inFailureBlock) {
        const s = SECTION.exec(line);
        if (s) {
          current = { header: s[1], errorLines: [], frames: [] };
          // A section seen before is read past, not kept again.
          if (!sections.has(s[1])) sections.set(s[1], current);
          if (s[1].startsWith('ERROR collecting ')) {
            loadError = true;
            collectionErrors++;
          }
          return;
        }
        if (current) {
          if (line.startsWith('E ') || line === 'E') keepLine(current.errorLines, line);
          else {
            const loc = LOCATION.exec(line);
            if (loc && current.file === undefined) current.file = loc[1];
            if (loc) {
              current.frames.push(line.trimEnd());
              if (current.frames.length > MAX_FRAMES) current.frames.shift();
            }
          }
          return;
        }
      }
      const sv = SUB_VERBOSE.exec(line);
      if (sv) {
        if (sv[2] === 'FAIL') subVerbose.set(sv[1], (subVerbose.get(sv[1]) ?? 0) + 1);
        return;
      }
      const vb = VERBOSE.exec(line);
      if (vb) {
        list(vb[2], vb[1], 'verbose');
        if ((vb[2] === 'FAILED' || vb[2] === 'ERROR') && !verbose.has(vb[1])) verbose.set(vb[1], { kind: vb[2], nodeid: vb[1], message: '' });
        return;
      }
      const sub = SUB_SUMMARY.exec(line);
      if (sub) {
        const { desc, nodeid, message } = splitSubtest(sub[1]);
        // Kept while a message could show them (a test may loop over thousands); counted all the same.
        const list = subSummary.get(nodeid) ?? [];
        if (list.length < MAX_SUBTEST_LINES) list.push({ desc, message });
        subSummaryCount++;
        if (nodeid.includes('::')) subSummary.set(nodeid, list);
        return;
      }
      const sm = SUMMARY.exec(line);
      if (sm) {
        const { nodeid, message } = splitSummary(sm[2]);
        // Only failures and errors are read from the summary; the others only say the test ran.
        const key = `${sm[1]}\u0000${nodeid}`;
        if ((sm[1] === 'FAILED' || sm[1] === 'ERROR') && !summary.has(key)) summary.set(key, { kind: sm[1], nodeid, message });
        if (nodeid.includes('::')) list(sm[1], nodeid, 'summary');
        if (sm[1] === 'ERROR' && !nodeid.includes('::')) loadError = true;
        return;
      }
      // "ERROR: file or directory not found: x" and usage errors: pytest never got to the tests.
      if (/^ERROR: /.test(line) || CONFTEST_ERROR.test(line)) loadError = true;
      const stop = STOPPING.exec(line);
      if (stop) stoppedEarly = `pytest stopped after the first ${stop[1]} failure${stop[1] === '1' ? '' : 's'} (-x or --maxfail), so the tests after it did not run; run without -x/--maxfail to see every failure.`;
    },
    finish(): ParseResult {
      const byHeader = new Map<string, Section>();
      // A subtest's section ("TestCalc.test_many (a=1, b=1)") belongs to its test's header, in the order printed.
      const subSections = new Map<string, Array<{ desc: string; section: Section }>>();
      for (const s of sections.values()) {
        const h = s.header.replace(/^ERROR at (setup|teardown) of /, '');
        const sub = s.header.startsWith('ERROR ') ? null : subtestHeader(h);
        if (sub) {
          const list = subSections.get(sub.test) ?? [];
          list.push({ desc: sub.desc, section: s });
          subSections.set(sub.test, list);
        }
        else if (!byHeader.has(h)) byHeader.set(h, s);
      }

      const failing = new Map<string, FailingTest>();
      const add = (parts: string[], file: string | undefined, message: string): void => {
        const id = parts.join(' > ');
        if (failing.has(id)) return;
        failing.set(id, file === undefined ? { id, message } : { id, file, message });
      };

      // Node ids as printed are exact; section headers lose the file and the "::" structure.
      let failedSummary = [...summary.values()].filter((s) => s.nodeid.includes('::'));
      if (failedSummary.length === 0) failedSummary = [...verbose.values()];
      if (failedSummary.length > 0) {
        for (const s of failedSummary) {
          const parts = nodeParts(s.nodeid);
          const section = byHeader.get(parts.slice(1).join('.'));
          const message = section && section.errorLines.length > 0 ? withFrames(errorMessage(section.errorLines), section) : s.message;
          add(parts, parts[0], message);
        }
      } else {
        for (const [header, s] of byHeader) {
          if (s.header.startsWith('ERROR collecting ')) continue;
          const parts = headerParts(header);
          add(s.file ? [s.file, ...parts] : parts, s.file, withFrames(errorMessage(s.errorLines), s));
        }
      }
      const subtests = subtestFailures({ subSummary, summaryReports: subSummaryCount, subVerbose, subSections, byHeader, failing, known: [...summary.values(), ...verbose.values()].map((s) => s.nodeid).concat([...listedBy.verbose.keys(), ...listedBy.summary.keys()]) });

      // A module pytest could not import (a syntax error, a missing import): its tests were never collected.
      const loadErrors: LoadErrorFile[] = [];
      for (const s of sections.values()) {
        if (s.header.startsWith('ERROR collecting ')) loadErrors.push({ file: s.header.slice('ERROR collecting '.length), message: errorMessage(s.errorLines) });
      }
      for (const s of summary.values()) {
        if (s.kind === 'ERROR' && !s.nodeid.includes('::') && !loadErrors.some((e) => e.file === s.nodeid)) loadErrors.push({ file: s.nodeid, message: s.message });
      }

      // A failing test is one report, however many lines named it (its -v line, its summary line, its section).
      for (const f of failing.values()) listed.fail(f.id);
      const errors = counts ? (counts.error ?? 0) + (counts.errors ?? 0) : 0;
      // pytest counts each failed subtest as a failure, and their test as passed when it did not fail itself.
      const failed = counts ? (counts.failed ?? 0) + Math.max(0, errors - collectionErrors) - subtests.reports + subtests.passedTests : 0;
      return {
        runner: 'pytest',
        failing: [...failing.values()],
        tests: namesPassing || (listedAny && (counts?.passed ?? 0) === 0) ? listed.list() : null,
        passedCount: counts ? Math.max(0, (counts.passed ?? 0) - subtests.passedTests) : null,
        // Collection errors are load errors, not failing tests; setup/teardown errors are failures.
        failedCount: counts ? Math.max(0, failed) : null,
        skippedCount: counts ? (counts.skipped ?? 0) + (counts.xfailed ?? 0) : null,
        loadError,
        loadErrors,
        diagnostics: [],
        ...(stoppedEarly ? { stoppedEarly } : {}),
      };
    },
  };
}

interface SubtestInput {
  subSummary: ReadonlyMap<string, ReadonlyArray<{ desc: string; message: string }>>;
  /** How many subtest summary lines there were (more than subSummary keeps). */
  summaryReports: number;
  subVerbose: ReadonlyMap<string, number>;
  subSections: ReadonlyMap<string, ReadonlyArray<{ desc: string; section: Section }>>;
  /** Sections of the tests' own failures, by header. */
  byHeader: ReadonlyMap<string, Section>;
  failing: Map<string, FailingTest>;
  /** Every node id the output printed, to find a subtest section's test by its header. */
  known: readonly string[];
}

/**
 * Each test with failing subtests fails under its own ID and file (never the file of a helper its traceback ends in),
 * with one message per subtest, its description in front. Returns how many subtest failures pytest counted and how many
 * of their tests it counted as passed, to turn its counts into tests.
 */
function subtestFailures(input: SubtestInput): { reports: number; passedTests: number } {
  const { subSummary, subVerbose, subSections, byHeader, failing } = input;
  const headerOf = (nodeid: string): string => nodeParts(nodeid).slice(1).join('.');
  const nodeByHeader = new Map<string, string>();
  for (const nodeid of [...input.known, ...subSummary.keys(), ...subVerbose.keys()]) if (nodeid.includes('::')) nodeByHeader.set(headerOf(nodeid), nodeid);
  const tests = new Map<string, { file: string | undefined; header: string; nodeid?: string }>();
  for (const nodeid of [...subSummary.keys(), ...subVerbose.keys()]) {
    const parts = nodeParts(nodeid);
    tests.set(parts.join(' > '), { file: parts[0], header: headerOf(nodeid), nodeid });
  }
  for (const [header, subs] of subSections) {
    const nodeid = nodeByHeader.get(header);
    const file = subs[0].section.file;
    const parts = nodeid ? nodeParts(nodeid) : file ? [file, ...headerParts(header)] : headerParts(header);
    const id = parts.join(' > ');
    if (!tests.has(id)) tests.set(id, { file: nodeid ? parts[0] : file, header, nodeid });
  }
  // The same failures as the summary, the sections and -v print them: whichever the output has.
  const count = (lists: Iterable<{ length: number }>): number => [...lists].reduce((n, l) => n + l.length, 0);
  const reports = Math.max(input.summaryReports, count(subSections.values()), [...subVerbose.values()].reduce((n, k) => n + k, 0));
  let passedTests = 0;
  for (const [id, t] of tests) {
    const sections = subSections.get(t.header) ?? [];
    const messages = sections.length > 0
      ? sections.map(({ desc, section }) => `${desc}: ${withFrames(errorMessage(section.errorLines), section)}`)
      : (t.nodeid ? subSummary.get(t.nodeid) ?? [] : []).map(({ desc, message }) => (desc ? `${desc}: ${message}` : message));
    const own = failing.get(id);
    if (!own && !byHeader.has(t.header)) passedTests++;
    // pytest 9 fails a test whose `subtests` failed with "contains N failed subtests": the subtests say more.
    const ownMessage = own && own.message.trim() !== '' && !/^contains \d+ failed subtests?$/.test(own.message.trim()) ? [own.message] : [];
    const message = capMessage([...ownMessage, ...messages].join('\n\n'));
    failing.set(id, t.file === undefined ? { id, message } : { id, file: t.file, message });
  }
  return { reports, passedTests };
}
