// Python's own runner, `python -m unittest` (and Django's `manage.py test`, which prints the same report): the
// `FAIL:`/`ERROR:` blocks name every failure, `-v` names every test with its outcome, and "Ran N tests" with the
// closing OK / FAILED (failures=…) line gives the counts. IDs are the contract's, file first (names.ts).
// A failing subtest — `FAIL: test_many (tests.test_calc.TestCalc.test_many) (a=1, b=1)` — is a failure of its test,
// with the subtest's parameters in front of its message; a module that does not import is a load error of its file.
import type { FailingTest, LoadErrorFile, TestStatus } from '../../ports/verifier';
import type { LineOptions, LineParser, OutputParser, ParseResult } from '../types';
import { MAX_MESSAGE_CHARS, capMessage, keepLine, parseText } from '../common/lineParser';
import { ReportedTests } from '../common/reportedTests';
import { trimBlankLines } from '../common/textTools';
import { UnittestNames } from './names';

const RULE = /^={70}$/;
const DASHES = /^-{70}$/;
const HEADER = /^(FAIL|ERROR|UNEXPECTED SUCCESS): (.+)$/;
const RAN = /^Ran (\d+) tests? in [\d.]+s$/;
const RESULT = /^(OK|FAILED|NO TESTS RAN)(?: \((.*)\))?$/;
/** `name (dotted)` and what follows: a subtest's `[msg] (a=1)`, or nothing. */
const NAME = /^([^\s()]+) \(([^\s()]+)\)(?: (.*))?$/;
/** One `-v` report: `name (dotted)[ subtest] ... outcome`; 3.10 chains a test with failing subtests into the next one. */
const VERBOSE = /^\s*([^\s()]+) \(([^\s()]+)\)(.*?) \.\.\. ?(.*)$/;
const OUTCOME = /^(ok|FAIL|ERROR|skipped(?: .*)?|expected failure|unexpected success)$/;
/** The pseudo-test unittest reports for a module it could not import, or a name that names nothing. */
const FAILED_IMPORT = /^unittest\.loader\.(?:_FailedTest|ModuleImportFailure)(?:\.|$)/;
const IMPORT_FAILED = /^ImportError: Failed to import test module: ([\w.]+)$/;
const FRAME = /^ {2}File "([^"]+)", line (\d+)/;
/** Frames in the interpreter's own library or installed packages: never the workspace's code. */
const LIBRARY_FRAME = /[\\/]lib[\\/](?:python[\d.]*|pypy[\d.]*)[\\/]/;

/** Room for a test's failing subtests in its message, leaving some for its own failure and the count of the rest. */
const SUBTEST_CHARS = (MAX_MESSAGE_CHARS * 3) / 4;

const STATUS_OF: Record<string, TestStatus> = { ok: 'passed', FAIL: 'failed', ERROR: 'failed', 'unexpected success': 'failed', 'expected failure': 'skipped' };

function statusOf(outcome: string): TestStatus {
  return STATUS_OF[outcome] ?? 'skipped';
}

export const unittestParser: OutputParser = {
  format: 'unittest',

  detect(text: string): number {
    let score = 0;
    for (const line of text.split(/\r?\n/)) {
      if (RAN.test(line)) score += 3;
      else if (/^FAILED \((?:failures|errors|skipped|expected failures|unexpected successes)=\d+/.test(line) || line === 'NO TESTS RAN') score += 3;
      else if (/^(?:FAIL|ERROR|UNEXPECTED SUCCESS): [^\s()]+ \([^\s()]+\)/.test(line)) score += 3;
      else if (/^\s*[^\s()]+ \([^\s()]+\).*? \.\.\. (?:ok|FAIL|ERROR|skipped|expected failure|unexpected success)/.test(line)) score += 2;
      if (score >= 6) break;
    }
    return Math.min(1, score / 6) * 0.95;
  },

  parse: (text: string, opts?: LineOptions): ParseResult => parseText(unittestLines(opts), text),
  lines: (opts) => unittestLines(opts),
};

interface Failure {
  id: string;
  file: string;
  /** Counted among "Ran N tests" (a test), or not (a class or module fixture). */
  counted: boolean;
  own: string | null;
  /** Its failing subtests' messages, up to SUBTEST_CHARS in all; the others are counted. */
  subtests: string[];
  subtestChars: number;
  moreSubtests: number;
}

function unittestLines(opts: LineOptions = {}): LineParser {
  const names = new UnittestNames({ cwd: opts.cwd, command: opts.command });
  const listed = new ReportedTests(opts.intern);
  const failures = new Map<string, Failure>();
  const loadErrors: LoadErrorFile[] = [];
  let listedAny = false;
  let ran: number | null = null;
  let result: Record<string, number> | null = null;
  // -v: a test whose outcome comes on a later line (its docstring's line, or after what the test printed).
  let pending: { name: string; dotted: string } | null = null;
  // A FAIL/ERROR block: its header, then its body up to the next rule or "Ran N tests".
  let afterRule = false;
  let block: { kind: string; title: string; body: string[]; started: boolean } | null = null;

  const failureOf = (name: string, dotted: string, counted: boolean): Failure => {
    const { file, titles } = names.read(name, dotted);
    const id = [file, ...titles].join(' > ');
    let f = failures.get(id);
    if (!f) {
      f = { id, file, counted, own: null, subtests: [], subtestChars: 0, moreSubtests: 0 };
      failures.set(id, f);
    }
    return f;
  };

  const report = (name: string, dotted: string, subtest: string, outcome: string): void => {
    if (FAILED_IMPORT.test(dotted)) return;
    // A subtest's own line (3.11 -v) says only that its test failed; the block says how.
    if (subtest.trim() !== '') return;
    listedAny = true;
    listed.add(names.id(name, dotted), statusOf(outcome));
  };

  const verbose = (line: string): boolean => {
    let rest = line;
    let read = false;
    for (;;) {
      const v = VERBOSE.exec(rest);
      if (!v) return read;
      read = true;
      pending = null;
      // A -v run names every test, even one whose outcome its subtests' lines stand for.
      listedAny = true;
      const outcome = v[4].trim();
      if (OUTCOME.test(outcome)) {
        report(v[1], v[2], v[3], outcome);
        return true;
      }
      // Nothing after "...": its subtests' lines follow, or what the test prints, then the outcome on a line of its own.
      pending = v[3].trim() === '' ? { name: v[1], dotted: v[2] } : null;
      rest = v[4];
    }
  };

  const closeBlock = (): void => {
    if (!block) return;
    const { kind, title, body } = block;
    block = null;
    const n = NAME.exec(title);
    if (!n) return;
    const [, name, dotted, subtest] = n;
    // The dashes that close the last block before "Ran N tests" are not part of it.
    while (body.length && (body[body.length - 1].trim() === '' || DASHES.test(body[body.length - 1]))) body.pop();
    const lines = trimBlankLines(body);
    if (FAILED_IMPORT.test(dotted)) {
      loadErrorOf(lines);
      return;
    }
    const fixture = /^(setUp|tearDown)(Class|Module)$/.test(name);
    const f = failureOf(name, dotted, !fixture);
    const message = kind === 'UNEXPECTED SUCCESS' ? 'unexpected success: the test is marked @expectedFailure and passed' : blockMessage(lines);
    if (subtest) {
      // A test can loop over thousands of subtests (and a log can repeat): what a message can show is kept, the rest counted.
      const entry = `${subtest}: ${message}`;
      if (f.subtests.includes(entry)) return;
      if (f.moreSubtests === 0 && f.subtestChars + entry.length + 2 <= SUBTEST_CHARS) {
        f.subtests.push(entry);
        f.subtestChars += entry.length + 2;
      } else f.moreSubtests++;
    } else f.own ??= message;
  };

  const loadErrorOf = (lines: string[]): void => {
    const imported = lines.map((l) => IMPORT_FAILED.exec(l)).find((m) => m)?.[1];
    const message = blockMessage(lines);
    if (!imported) {
      // A name on the command line that names nothing (`tests.test_calc.TestCalc.test_gone`): the run is broken, no file.
      loadErrors.push({ file: '', message });
      return;
    }
    const file = names.moduleFile(imported);
    // The frame in the module's own file says where it broke (the syntax error's line, the failing import).
    let line: number | undefined;
    for (const l of lines) {
      const m = FRAME.exec(l);
      if (m && names.sameFile(m[1], file)) line = Number(m[2]);
    }
    loadErrors.push(line === undefined ? { file, message } : { file, line, message });
  };

  return {
    push(line: string): void {
      if (block) {
        if (RULE.test(line) || RAN.test(line)) closeBlock();
        else {
          // The dashes under the header open the body; a line of dashes later is part of it (or ends it before "Ran").
          if (!block.started && DASHES.test(line)) block.started = true;
          else keepLine(block.body, line);
          return;
        }
      }
      if (RULE.test(line)) {
        afterRule = true;
        pending = null;
        return;
      }
      if (afterRule) {
        afterRule = false;
        const h = HEADER.exec(line);
        if (h) {
          block = { kind: h[1], title: h[2], body: [], started: false };
          return;
        }
      }
      const ranLine = RAN.exec(line);
      if (ranLine) {
        ran = Number(ranLine[1]);
        pending = null;
        return;
      }
      const res = RESULT.exec(line);
      if (res && ran !== null) {
        result = countsFrom(res[2] ?? '');
        return;
      }
      if (verbose(line)) return;
      const p = pending as { name: string; dotted: string } | null;
      if (p) {
        const outcome = line.replace(/^.* \.\.\. /, '').trim();
        if (OUTCOME.test(outcome)) {
          report(p.name, p.dotted, '', outcome);
          pending = null;
        }
      } else {
        // -v with a docstring: `name (dotted)` alone, its docstring's first line and the outcome on the next.
        const n = NAME.exec(line);
        if (n && n[3] === undefined) pending = { name: n[1], dotted: n[2] };
      }
    },

    finish(): ParseResult {
      closeBlock();
      const failing: FailingTest[] = [];
      let countedFailures = 0;
      for (const f of failures.values()) {
        const more = f.moreSubtests ? [`… and ${f.moreSubtests} more failing subtest${f.moreSubtests === 1 ? '' : 's'}`] : [];
        const parts = [...(f.own !== null ? [f.own] : []), ...f.subtests, ...more];
        failing.push({ id: f.id, file: f.file, message: capMessage(parts.join('\n\n')) });
        if (f.counted) countedFailures++;
        // Its -v line and its block are one report (3.10 prints no outcome for a test whose subtests failed).
        listed.fail(f.id);
      }
      const named = loadErrors.filter((e) => e.file !== '');
      const r = result ?? {};
      const skipped = (r.skipped ?? 0) + (r['expected failures'] ?? 0);
      // 3.10 and before name an unexpected success only under -v: the count stands for the others.
      const namedUnexpected = [...failures.values()].filter((f) => f.own?.startsWith('unexpected success')).length;
      const unnamed = Math.max(0, (r['unexpected successes'] ?? 0) - namedUnexpected);
      const counted = ran !== null && result !== null;
      return {
        runner: 'unittest',
        failing,
        tests: listedAny ? listed.list() : null,
        passedCount: counted ? Math.max(0, ran! - countedFailures - loadErrors.length - skipped - unnamed) : null,
        failedCount: counted ? failing.length + unnamed : null,
        skippedCount: counted ? skipped : null,
        loadError: loadErrors.length > 0,
        loadErrors: named,
        diagnostics: [],
      };
    },
  };
}

/** "failures=1, errors=2, skipped=1, expected failures=1" → counts by name. */
function countsFrom(text: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const part of text.split(', ')) {
    const m = /^([a-z ]+)=(\d+)$/.exec(part.trim());
    if (m) counts[m[1]] = Number(m[2]);
  }
  return counts;
}

/**
 * What the block says, the exception first (as pytest's message starts) and the traceback after it, without the
 * frames of the interpreter's own library (unittest's loader) that say nothing about the workspace.
 */
function blockMessage(lines: string[]): string {
  let tb = -1;
  for (let i = 0; i < lines.length; i++) if (lines[i] === 'Traceback (most recent call last):') tb = i;
  if (tb < 0) return lines.join('\n');
  let end = tb + 1;
  while (end < lines.length && /^\s/.test(lines[end])) end++;
  const exception = trimBlankLines(lines.slice(end));
  const traceback: string[] = [];
  let skipping = false;
  for (const l of lines.slice(0, end)) {
    const frame = FRAME.exec(l);
    if (frame) skipping = LIBRARY_FRAME.test(frame[1]);
    else if (!/^ {3}/.test(l)) skipping = false;
    if (!skipping) traceback.push(l);
  }
  return [...exception, ...trimBlankLines(traceback)].join('\n');
}
