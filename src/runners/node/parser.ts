// node --test's spec reporter (Node 20): "▶ Suite" opens a suite or parent test, the same name with ✔/✖ at the
// same indent closes it, anything else with ✔/✖/﹣ is a leaf. The "✖ failing tests:" recap repeats the failures;
// it is read only for the file each failure lives in, never counted again.
import type { FailingTest, LoadErrorFile } from '../../ports/verifier';
import type { LineOptions, LineParser, OutputParser, ParseResult } from '../types';
import { capMessage, keepLine, parseText } from '../common/lineParser';
import { headAndTail, indentOf } from '../common/textTools';
import { ReportedTests } from '../common/reportedTests';
import { NODE_DOT } from './dotReporter';

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
  lines: (opts) => nodeLines(opts),
};

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
  return parseText(nodeLines(), text);
}

/** An item whose message (the lines indented under it) is still arriving. */
interface Pending {
  indent: number;
  lines: string[];
  done: (message: string) => void;
}

export function nodeLines(opts: LineOptions = {}): LineParser {
  const open: Open[] = [];
  // One entry per test however often it is printed: a failure is kept once, the first time.
  const failures: Failure[] = [];
  const failed = new Set<string>();
  const tests = new ReportedTests(opts.intern);
  const loadErrors: LoadErrorFile[] = [];
  let notLoadedReports = 0;
  const summary = new Map<string, number>();
  let loadError = false;
  let sawItem = false;
  // Unindented lines that are not items: a crashed file's stderr, kept for the load-error message.
  let loose: string[] = [];
  // Index in failures of the first failure of the current run (the recap only covers its own run).
  let runStart = 0;
  let pending: Pending | null = null;
  // Inside the "✖ failing tests:" recap: the file announced for the next failure, and where to look for it.
  let recap: { file: string | null; next: number } | null = null;

  /** Ends the message being collected: trailing blank lines dropped, the item's indent removed. */
  const settle = (): void => {
    if (!pending) return;
    const p = pending;
    pending = null;
    while (p.lines.length && p.lines[p.lines.length - 1].trim() === '') p.lines.pop();
    p.done(capMessage(dedent(p.lines, p.indent + 2)));
  };

  const recapLine = (line: string): boolean => {
    const r = recap!;
    const at = RECAP_FILE.exec(line);
    if (at) {
      r.file = at[1];
      return true;
    }
    const item = ITEM.exec(line);
    if (!item || item[1].length !== 0) return true;
    // An unindented item not announced by "test at" starts a new run.
    if (item[2] !== '✖' || r.file === null) {
      recap = null;
      return false;
    }
    const name = item[3].replace(TAIL, '');
    for (let k = r.next; k < failures.length; k++) {
      if (failures[k].leaf === name) {
        failures[k].file = r.file;
        r.next = k + 1;
        break;
      }
    }
    r.file = null;
    return true;
  };

  const itemLine = (item: RegExpExecArray): void => {
    sawItem = true;
    const indent = item[1].length;
    const mark = item[2];
    const name = item[3].replace(TAIL, '');
    if (mark === '▶') {
      // Suites at this indent or deeper that never printed their end are over: a sibling starts here.
      while (open.length && open[open.length - 1].indent >= indent) open.pop();
      open.push({ indent, name, failingInside: false, firstFailure: failures.length });
      loose = [];
      return;
    }
    const top = open[open.length - 1];
    if (top && top.indent === indent && top.name === name) {
      open.pop();
      const parents = [...open];
      pending = {
        indent,
        lines: [],
        done: (message) => {
          if (mark === '✖' && !top.failingInside) {
            // A suite that failed with every child passing failed on its own (an after hook): report it.
            const id = tests.add(pathOf(parents, name), 'failed');
            if (!failed.has(id)) {
              failed.add(id);
              failures.push({ id, leaf: name, message });
            }
          } else if (mark === '✖' && message) {
            // A failed before hook cancels the children; their message alone ("was cancelled") hides the cause.
            for (let k = top.firstFailure; k < failures.length; k++) {
              if (/\bcancelled\b/.test(failures[k].message)) failures[k].message += `\n${message}`;
            }
          }
        },
      };
      if (mark === '✖') markFailing(open);
      if (open.length === 0) loose = [];
      return;
    }
    if (mark === '✖' && open.length === 0 && TEST_FILE.test(name)) {
      // The file itself failed: it did not load (or died before reporting); its stderr came just before.
      loadError = true;
      notLoadedReports++;
      const notLoaded: LoadErrorFile = { file: name, message: '' };
      const preamble = loose.join('\n');
      // The first report of a file is kept (a second run of the same file says it again).
      if (!loadErrors.some((e) => e.file === name)) loadErrors.push(notLoaded);
      pending = { indent, lines: [], done: (message) => { notLoaded.message = capMessage(`${preamble}\n${message}`.trim()); } };
      loose = [];
      return;
    }
    // "✔ name # TODO" is a todo test that ran and failed as expected: not run, to the loop.
    const directive = TAIL.exec(item[3])?.[1];
    const id = tests.add(pathOf(open, name), mark === '✖' ? 'failed' : mark === '✔' && !directive ? 'passed' : 'skipped');
    if (mark === '✖') {
      markFailing(open);
      if (!failed.has(id)) {
        failed.add(id);
        const failure: Failure = { id, leaf: name, message: '' };
        failures.push(failure);
        pending = { indent, lines: [], done: (message) => { failure.message = message; } };
      } else {
        // Read past, so its lines are not taken for the next item's; not kept.
        pending = { indent, lines: [], done: () => undefined };
      }
    }
    if (open.length === 0) loose = [];
  };

  return {
    push(line) {
      if (pending) {
        if (line.trim() === '' || indentOf(line) > pending.indent) {
          keepLine(pending.lines, line);
          return;
        }
        settle();
      }
      if (recap) {
        if (recapLine(line)) return;
      }
      if (RECAP.test(line)) {
        recap = { file: null, next: runStart };
        runStart = failures.length;
        return;
      }
      const sum = SUMMARY.exec(line);
      if (sum) {
        // Several `node --test` runs in one script each print a summary; they add up.
        summary.set(sum[1], (summary.get(sum[1]) ?? 0) + Number(sum[2]));
        return;
      }
      const item = ITEM.exec(line);
      if (!item) {
        if (line.trim() !== '' && loose.length < 200) loose.push(line);
        return;
      }
      itemLine(item);
    },
    finish() {
      settle();
      if (!sawItem && !summary.has('tests')) loadError = true;
      const has = summary.has('tests');
      const count = (...keys: string[]) => keys.reduce((n, k) => n + (summary.get(k) ?? 0), 0);
      return {
        runner: 'node',
        failing: failures.map(({ leaf: _leaf, ...test }) => test),
        tests: sawItem ? tests.list() : null,
        passedCount: has ? count('pass') : null,
        // Cancelled tests are shown with ✖ and listed as failing; todo tests count as not run. node counts a file
        // that did not load as a failing test: it is counted apart.
        failedCount: has ? Math.max(0, count('fail', 'cancelled') - notLoadedReports) : null,
        skippedCount: has ? count('skipped', 'todo') : null,
        loadError,
        loadErrors,
        diagnostics: [],
      };
    },
  };
}

function pathOf(open: Open[], name: string): string {
  return open.length === 0 ? name : `${open.map((o) => o.name).join(' > ')} > ${name}`;
}

function markFailing(open: Open[]): void {
  if (open.length > 0) open[open.length - 1].failingInside = true;
}

function dedent(block: string[], by: number): string {
  return block
    .map((l) => l.slice(Math.min(by, indentOf(l))).replace(/\s+$/, ''))
    .join('\n')
    .trim();
}
