// Reads jest's default reporter: "FAIL file" lines, "● Suite › test" failure blocks and the
// "Test Suites:" / "Tests:" summary. The ● blocks carry every failure; the verbose tick lists (✓ ✕ ○ ✎, printed
// for a single file or with --verbose) are read only to name the tests that ran.
import type { FailingTest, LoadErrorFile, TestStatus } from '../../ports/verifier';
import type { LineOptions, LineParser, OutputParser, ParseResult } from '../types';
import { countOf, headAndTail, TitleTree, trimBlankLines } from '../common/textTools';
import { hasJestJson, parseJestJson, withJsonDocument } from '../common/jsonReports';
import { keepLine, parseText } from '../common/lineParser';
import { ReportedTests } from '../common/reportedTests';

const FILE_LINE = /^ ?(FAIL|PASS) {1,2}(\S.*?)(?:\s+\(\d[\d.]*\s*m?s\))?\s*$/;
const HEADER = /^ {2}● (.+)$/;
const TESTS_SUMMARY = /^Tests:\s+(.*?)\s*(\d+) total\s*$/;
const SUITES_SUMMARY = /^Test Suites:\s+(.*?)\s*(\d+) total\s*$/;
const LOAD_FAILURE_TITLE = 'Test suite failed to run';
// Jest reports these as ● blocks that belong to no test.
const NON_TEST_TITLES = new Set(['Console']);
const NO_TESTS = /^No tests found, exiting with code \d+/;
const TICK = /^(✓|✕|○|✎) (?:(?:skipped|todo) )?(.*?)(?: \(\d+(?:\.\d+)? ?m?s\))?$/;
const TICK_STATUS: Record<string, TestStatus> = { '✓': 'passed', '✕': 'failed', '○': 'skipped', '✎': 'skipped' };

interface Block {
  file?: string;
  title: string;
  lines: string[];
}

/** Drops jest's 4-space block indent and the blank lines around a message. */
function blockMessage(lines: string[], indent = 4): string {
  const pad = ' '.repeat(indent);
  return trimBlankLines(lines)
    .map((l) => {
      const line = l.replace(/\s+$/, '');
      return line.startsWith(pad) ? line.slice(indent) : line.trimStart();
    })
    .join('\n');
}

function jestTextLines(opts: LineOptions): LineParser {
  const failing: FailingTest[] = [];
  const loadErrors: LoadErrorFile[] = [];
  const seen = new Set<string>();
  const filesWithTestFailures = new Set<string>();
  let loadError = false;
  let passed: number | null = null;
  let failed: number | null = null;
  let skipped: number | null = null;
  let failedSuites = 0;
  let stoppedEarly: string | undefined;
  let file: string | undefined;
  let block: Block | undefined;
  const tree = new TitleTree(2);
  let inTree = false;
  const listed = new ReportedTests(opts.intern);

  const close = (): void => {
    if (!block) return;
    const b = block;
    block = undefined;
    if (b.title === LOAD_FAILURE_TITLE) {
      loadError = true;
      // "Summary of all failing tests" repeats the block: the first is kept.
      if (b.file !== undefined && !loadErrors.some((e) => e.file === b.file)) loadErrors.push({ file: b.file, message: blockMessage(b.lines) });
      return;
    }
    if (NON_TEST_TITLES.has(b.title)) return;
    const id = b.title.split(' › ').join(' > ');
    // "Summary of all failing tests" repeats every block once more; keep the first.
    const key = `${b.file ?? ''}\u0000${id}`;
    if (seen.has(key)) return;
    seen.add(key);
    filesWithTestFailures.add(b.file ?? '');
    const failure: FailingTest = { id, message: blockMessage(b.lines) };
    if (b.file !== undefined) failure.file = b.file;
    failing.push(failure);
  };

  return {
    push(raw: string): void {
      const line = raw.replace(/\r$/, '');
      const header = HEADER.exec(line);
      if (header) {
        inTree = false;
        close();
        block = { file, title: header[1].trim(), lines: [] };
        return;
      }
      const fileLine = FILE_LINE.exec(line);
      if (fileLine) {
        close();
        file = fileLine[2];
        tree.reset();
        inTree = true;
        return;
      }
      const suites = SUITES_SUMMARY.exec(line);
      if (suites) {
        inTree = false;
        close();
        failedSuites = countOf(suites[1], 'failed');
        // "1 failed, 1 of 3 total": --bail stopped after a failing file.
        const ran = /(\d+) of$/.exec(suites[1].trim());
        if (ran && Number(ran[1]) < Number(suites[2])) {
          stoppedEarly = `jest stopped after a failing test file (--bail): ${ran[1]} of ${suites[2]} test files ran; run without --bail to see every failure.`;
        }
        return;
      }
      const tests = TESTS_SUMMARY.exec(line);
      if (tests) {
        close();
        passed = countOf(tests[1], 'passed');
        failed = countOf(tests[1], 'failed');
        // A todo test is not run either; to the loop it is as skipped as a skipped one.
        skipped = countOf(tests[1], 'skipped') + countOf(tests[1], 'todo');
        return;
      }
      if (line === 'Summary of all failing tests') {
        close();
        return;
      }
      if (NO_TESTS.test(line)) {
        close();
        loadError = true;
        return;
      }
      if (block) keepLine(block.lines, line);
      else if (inTree) {
        const leaf = tree.read(line, tickLeaf);
        if (leaf) listed.add(leaf.id, leaf.status);
      }
    },
    finish(): ParseResult {
      close();

      // A suite that failed without a failing test of its own did not run (e.g. a throwing top-level hook) — unless the
      // output names no failure at all while counting some: a summary-only reporter, which the verifier says it cannot read.
      const unnamed = failing.length === 0 && (failed ?? 0) > 0;
      if (failedSuites > filesWithTestFailures.size && !unnamed) loadError = true;

      // Console output can break the tick tree: the listing is used only when it adds up to the summary.
      const count = (status: TestStatus) => listed.reports(status);
      const trusted = listed.size > 0 && count('passed') === passed && count('failed') === failed && count('skipped') === skipped;
      return {
        runner: 'jest',
        failing,
        tests: trusted ? listed.list() : null,
        passedCount: passed,
        failedCount: failed,
        skippedCount: skipped,
        loadError,
        loadErrors,
        diagnostics: [],
        ...(stoppedEarly ? { stoppedEarly } : {}),
      };
    },
  };
}

function tickLeaf(text: string): { title: string; status: TestStatus } | null {
  const tick = TICK.exec(text);
  return tick ? { title: tick[2], status: TICK_STATUS[tick[1]] } : null;
}

// A 50 MB log is scored on its head and tail only: the file lines open it and the summary closes it.
const SAMPLE = 256 * 1024;

function detect(text: string): number {
  const sample = headAndTail(text, SAMPLE);
  if (hasJestJson(sample)) return 0.97;
  let score = 0;
  if (/^Test Suites: .*\d+ total\s*$/m.test(sample)) score += 0.5;
  if (/^Tests: {2,}.*\d+ total\s*$/m.test(sample)) score += 0.2;
  if (/^Snapshots: {2,}/m.test(sample)) score += 0.1;
  if (/^ ?(FAIL|PASS) {1,2}[^\s>]+\.[cm]?[jt]sx?(?: \(|\s*$)/m.test(sample)) score += 0.15;
  if (/^ {2}● .+ › /m.test(sample) || /^ {2}● Test suite failed to run$/m.test(sample)) score += 0.15;
  return Math.min(1, score);
}

/** jest's default reporter, or its --json document (one line, after the text it prints on stderr). */
function jestLines(opts: LineOptions = {}): LineParser {
  return withJsonDocument(jestTextLines(opts), (line) => line.startsWith('{"numFailedTestSuites":'), (doc) => parseJestJson(doc, 'jest'));
}

export const jestParser: OutputParser = { format: 'jest', detect, parse: (text) => parseText(jestLines(), text), lines: jestLines };
