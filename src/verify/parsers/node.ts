// node --test's spec reporter (Node 20): "▶ Suite" opens a suite or parent test, the same name with ✔/✖ at the
// same indent closes it, anything else with ✔/✖/﹣ is a leaf. The "✖ failing tests:" recap repeats the failures;
// it is read only for the file each failure lives in, never counted again.
import type { FailingTest, OutputParser, ParseResult, ReportedTest } from '../types';
import { headAndTail, indentOf } from './textTools';

const ITEM = /^(\s*)(▶|✔|✖|﹣) (.*)$/;
const TAIL = /(?: \(\d+(?:\.\d+)?m?s\))?(?: # (SKIP|TODO)\b.*)?$/;
const SUMMARY = /^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)$/;
const RECAP = /^✖ failing tests:\s*$/;
const RECAP_FILE = /^test at (.+):\d+:\d+$/;
// A failing leaf named after a test file: node ran the file, and it died before reporting any test.
const TEST_FILE = /[\\/][^\\/]+\.[cm]?[jt]sx?$/;

interface Open {
  indent: number;
  name: string;
  failingInside: boolean;
  /** Index in failures of the first failure recorded inside this suite. */
  firstFailure: number;
}

interface Failure extends FailingTest {
  leaf: string;
}

export const nodeParser: OutputParser = {
  format: 'node',
  detect: detectNode,
  parse: (text) => parseNodeSpec(text),
};

/** node's dot reporter: a line of dots and Xs, then "Failed tests:" with bare names (no suite path): not readable. */
export const NODE_DOT = /^[.X]+\s*\n[\s\S]*^Failed tests:\s*$/m;

function detectNode(text: string): number {
  const sample = headAndTail(text, 65536);
  if (NODE_DOT.test(sample.trimStart())) return 0;
  if (/^ℹ tests \d+$/m.test(sample) && /^ℹ pass \d+$/m.test(sample)) return 0.95;
  // node prints sub-millisecond durations; mocha prints whole milliseconds and only for slow tests.
  if (/^\s*[✔✖] .* \(\d+\.\d+ms\)$/m.test(sample)) return 0.7;
  if (/^\s*▶ \S/m.test(sample)) return 0.5;
  return 0;
}

export function parseNodeSpec(text: string): ParseResult {
  const lines = text.split(/\r?\n/);
  const open: Open[] = [];
  const failures: Failure[] = [];
  const tests: ReportedTest[] = [];
  const summary = new Map<string, number>();
  let loadError = false;
  let sawItem = false;
  // Unindented lines that are not items: a crashed file's stderr, kept for the load-error message.
  let loose: string[] = [];
  // Index in failures of the first failure of the current run (the recap only covers its own run).
  let runStart = 0;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (RECAP.test(line)) {
      i = readRecap(lines, i + 1, failures, runStart) - 1;
      runStart = failures.length;
      continue;
    }
    const sum = SUMMARY.exec(line);
    if (sum) {
      // Several `node --test` runs in one script each print a summary; they add up.
      summary.set(sum[1], (summary.get(sum[1]) ?? 0) + Number(sum[2]));
      continue;
    }
    const item = ITEM.exec(line);
    if (!item) {
      if (line.trim() !== '' && loose.length < 200) loose.push(line);
      continue;
    }
    sawItem = true;
    const indent = item[1].length;
    const mark = item[2];
    const name = item[3].replace(TAIL, '');
    const messageEnd = endOfBlock(lines, i + 1, indent);
    const message = () => dedent(lines.slice(i + 1, messageEnd), indent + 2);

    if (mark === '▶') {
      open.push({ indent, name, failingInside: false, firstFailure: failures.length });
      loose = [];
      continue;
    }
    const top = open[open.length - 1];
    if (top && top.indent === indent && top.name === name) {
      open.pop();
      // A suite that failed with every child passing failed on its own (an after hook): report it.
      if (mark === '✖' && !top.failingInside) {
        failures.push({ id: pathOf(open, name), leaf: name, message: message() });
        tests.push({ id: pathOf(open, name), status: 'failed' });
        markFailing(open);
      } else if (mark === '✖') {
        // A failed before hook cancels the children; their message alone ("was cancelled") hides the cause.
        const cause = message();
        if (cause) {
          for (let k = top.firstFailure; k < failures.length; k++) {
            if (/\bcancelled\b/.test(failures[k].message)) failures[k].message += `\n${cause}`;
          }
        }
        markFailing(open);
      }
      i = messageEnd - 1;
      if (open.length === 0) loose = [];
      continue;
    }
    // "✔ name # TODO" is a todo test that ran and failed as expected: not run, to the loop.
    const directive = TAIL.exec(item[3])?.[1];
    tests.push({ id: pathOf(open, name), status: mark === '✖' ? 'failed' : mark === '✔' && !directive ? 'passed' : 'skipped' });
    if (mark === '✖') {
      const failure: Failure = { id: pathOf(open, name), leaf: name, message: message() };
      if (open.length === 0 && TEST_FILE.test(name)) {
        loadError = true;
        failure.file = name;
        if (loose.length > 0) failure.message = `${loose.join('\n')}\n${failure.message}`.trim();
      }
      failures.push(failure);
      markFailing(open);
      i = messageEnd - 1;
    }
    if (open.length === 0) loose = [];
  }

  if (!sawItem && !summary.has('tests')) loadError = true;
  const has = summary.has('tests');
  const count = (...keys: string[]) => keys.reduce((n, k) => n + (summary.get(k) ?? 0), 0);
  return {
    runner: 'node',
    failing: failures.map(({ leaf: _leaf, ...test }) => test),
    tests: sawItem ? tests : null,
    passedCount: has ? count('pass') : null,
    // Cancelled tests are shown with ✖ and listed as failing; todo tests count as not run.
    failedCount: has ? count('fail', 'cancelled') : null,
    skippedCount: has ? count('skipped', 'todo') : null,
    loadError,
    diagnostics: [],
  };
}

/**
 * The recap names each failure's file ("test at test/a.test.js:3:5"), in the order the failures came.
 * Returns the index of the first line after it: an unindented item not announced by "test at" starts a new run.
 */
function readRecap(lines: string[], start: number, failures: Failure[], from: number): number {
  let file: string | null = null;
  let next = from;
  for (let i = start; i < lines.length; i++) {
    const line = lines[i];
    const at = RECAP_FILE.exec(line);
    if (at) {
      file = at[1];
      continue;
    }
    const item = ITEM.exec(line);
    if (!item || item[1].length !== 0) continue;
    if (item[2] !== '✖' || file === null) return i;
    const name = item[3].replace(TAIL, '');
    for (let k = next; k < failures.length; k++) {
      if (failures[k].leaf === name) {
        failures[k].file = file;
        next = k + 1;
        break;
      }
    }
    file = null;
  }
  return lines.length;
}

function pathOf(open: Open[], name: string): string {
  return open.length === 0 ? name : `${open.map((o) => o.name).join(' > ')} > ${name}`;
}

function markFailing(open: Open[]): void {
  if (open.length > 0) open[open.length - 1].failingInside = true;
}

/** First line at or after `from` that is not part of the block indented deeper than `indent`. */
function endOfBlock(lines: string[], from: number, indent: number): number {
  let end = from;
  let lastContent = from;
  for (; end < lines.length; end++) {
    const line = lines[end];
    if (line.trim() === '') continue;
    if (indentOf(line) <= indent) break;
    lastContent = end + 1;
  }
  return Math.max(lastContent, from);
}

function dedent(block: string[], by: number): string {
  return block
    .map((l) => l.slice(Math.min(by, indentOf(l))).replace(/\s+$/, ''))
    .join('\n')
    .trim();
}
