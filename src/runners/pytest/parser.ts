// pytest's terminal output (-q, -rA, default): failing node ids from the short summary when printed,
// otherwise from the "___ Class.test ___" sections of FAILURES/ERRORS; messages from the sections' "E" lines.
import type { FailingTest, LoadErrorFile, TestStatus } from '../../ports/verifier';
import type { LineOptions, LineParser, OutputParser, ParseResult } from '../types';
import { keepLine, parseText } from '../common/lineParser';
import { ReportedTests } from '../common/reportedTests';

const BLOCK = /^=+ (.+?) =+$/;
const SECTION = /^_{3,} (.+?) _{3,}$/;
const LOCATION = /^([^\s:][^:]*):(\d+):(?: |$)/;
const SUMMARY = /^(FAILED|ERROR|PASSED|SKIPPED|XFAIL|XPASS) (.+)$/;
const COUNTS = /^(?:=+ )?((?:\d+ [a-z]+(?:, )?)+) in [\d.]+s(?: \([^)]*\))?(?: =+)?$/;
// A conftest.py that cannot be imported stops pytest before it collects a single test.
const CONFTEST_ERROR = /^ImportError while loading conftest /;
const STOPPING = /stopping after (\d+) failures?/;
const PROGRESS = /^[.FEsxX]+\s+\[\s*\d+%\]$/;
// -v: "tests/x.py::T::test_a FAILED                                  [ 50%]"
const VERBOSE = /^(\S.*?::.+?) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(?: \(.*\))?\s+\[\s*\d+%\]$/;

const STATUS_OF: Record<string, TestStatus> = {
  PASSED: 'passed', XPASS: 'passed', FAILED: 'failed', ERROR: 'failed', SKIPPED: 'skipped', XFAIL: 'skipped',
};

interface Section {
  header: string;
  file?: string;
  errorLines: string[];
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
  const list = (kind: string, nodeid: string): void => {
    listedAny = true;
    if (kind === 'PASSED' || kind === 'XPASS') namesPassing = true;
    // A test can be listed twice (FAILED in the call, ERROR at teardown): failed wins.
    const status = STATUS_OF[kind];
    if (status) listed.add(nodeParts(nodeid).join(' > '), status);
  };
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
          current = { header: s[1], errorLines: [] };
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
          else if (current.file === undefined) {
            const loc = LOCATION.exec(line);
            if (loc) current.file = loc[1];
          }
          return;
        }
      }
      const vb = VERBOSE.exec(line);
      if (vb) {
        list(vb[2], vb[1]);
        if ((vb[2] === 'FAILED' || vb[2] === 'ERROR') && !verbose.has(vb[1])) verbose.set(vb[1], { kind: vb[2], nodeid: vb[1], message: '' });
        return;
      }
      const sm = SUMMARY.exec(line);
      if (sm) {
        const { nodeid, message } = splitSummary(sm[2]);
        // Only failures and errors are read from the summary; the others only say the test ran.
        const key = `${sm[1]}\u0000${nodeid}`;
        if ((sm[1] === 'FAILED' || sm[1] === 'ERROR') && !summary.has(key)) summary.set(key, { kind: sm[1], nodeid, message });
        if (nodeid.includes('::')) list(sm[1], nodeid);
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
      for (const s of sections.values()) {
        const h = s.header.replace(/^ERROR at (setup|teardown) of /, '');
        if (!byHeader.has(h)) byHeader.set(h, s);
      }

      const failing: FailingTest[] = [];
      const seen = new Set<string>();
      const add = (parts: string[], file: string | undefined, message: string): void => {
        const id = parts.join(' > ');
        if (seen.has(id)) return;
        seen.add(id);
        failing.push(file === undefined ? { id, message } : { id, file, message });
      };

      // Node ids as printed are exact; section headers lose the file and the "::" structure.
      let failedSummary = [...summary.values()].filter((s) => s.nodeid.includes('::'));
      if (failedSummary.length === 0) failedSummary = [...verbose.values()];
      if (failedSummary.length > 0) {
        for (const s of failedSummary) {
          const parts = nodeParts(s.nodeid);
          const section = byHeader.get(parts.slice(1).join('.'));
          const message = section && section.errorLines.length > 0 ? errorMessage(section.errorLines) : s.message;
          add(parts, parts[0], message);
        }
      } else {
        for (const s of sections.values()) {
          if (s.header.startsWith('ERROR collecting ')) continue;
          const header = s.header.replace(/^ERROR at (setup|teardown) of /, '');
          const parts = headerParts(header);
          add(s.file ? [s.file, ...parts] : parts, s.file, errorMessage(s.errorLines));
        }
      }

      // A module pytest could not import (a syntax error, a missing import): its tests were never collected.
      const loadErrors: LoadErrorFile[] = [];
      for (const s of sections.values()) {
        if (s.header.startsWith('ERROR collecting ')) loadErrors.push({ file: s.header.slice('ERROR collecting '.length), message: errorMessage(s.errorLines) });
      }
      for (const s of summary.values()) {
        if (s.kind === 'ERROR' && !s.nodeid.includes('::') && !loadErrors.some((e) => e.file === s.nodeid)) loadErrors.push({ file: s.nodeid, message: s.message });
      }

      for (const f of failing) listed.add(f.id, 'failed');
      const errors = counts ? (counts.error ?? 0) + (counts.errors ?? 0) : 0;
      return {
        runner: 'pytest',
        failing,
        tests: namesPassing || (listedAny && (counts?.passed ?? 0) === 0) ? listed.list() : null,
        passedCount: counts ? counts.passed ?? 0 : null,
        // Collection errors are load errors, not failing tests; setup/teardown errors are failures.
        failedCount: counts ? (counts.failed ?? 0) + Math.max(0, errors - collectionErrors) : null,
        skippedCount: counts ? (counts.skipped ?? 0) + (counts.xfailed ?? 0) : null,
        loadError,
        loadErrors,
        diagnostics: [],
        ...(stoppedEarly ? { stoppedEarly } : {}),
      };
    },
  };
}
