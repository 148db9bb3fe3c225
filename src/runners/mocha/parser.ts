// mocha's spec (and dot/list: they share its epilogue) output. The numbered failure list after "N failing" names every
// failure with its full title path, one title a line:
//   "  1) Suite\n       nested\n         test:" — each deeper title indented two more, mocha's ":" after the last.
// The spec tree above the epilogue names the tests that passed or are pending, under the same titles.
import type { LineParser, OutputParser, ParseResult } from '../types';
import { headAndTail, indentOf, TitleTree } from '../common/textTools';
import { hasMochaJson, parseMochaJson, withJsonDocument } from '../common/jsonReports';
import { capMessage, keepLine, parseText } from '../common/lineParser';
import { Failures, ReportedTests } from '../common/reportedTests';

const PASSING = /^\s*(\d+) passing\b/;
const FAILING = /^\s*(\d+) failing\s*$/;
const PENDING = /^\s*(\d+) pending\s*$/;
const ENTRY = /^ {2}(\d+)\) (.*)$/;
// The tree above the epilogue: "✔ title (12ms)" passed, "3) title" failed, "- title" pending, else a suite title.
const TREE_PASSED = /^(?:✔|✓) (.*?)(?: \(\d+ms\))?$/;
const TREE_FAILED = /^\d+\) /;
const TREE_PENDING = /^- (.*)$/;
// Printed by mocha 10+ when a spec file cannot be loaded; no summary follows (mocha 8 and 9 print Node's stack alone).
const LOAD_ERROR = /^\s*(Exception during run:|Error: No test files found)/;
// The title path sits at 5 spaces plus 2 per level.
const TITLE_INDENT = 5;

// Node's own report of an error that ended the process (mocha 8 and 9 loading a file that throws): the error line and
// the frames under it, "    at …".
const NODE_ERROR = /^(?:[A-Z]\w*)?Error(?: \[\w+\])?: \S/m;
const STACK_FRAME = /^ {4}at \S/m;

export const mochaParser: OutputParser = {
  format: 'mocha',
  detect: detectMocha,
  // Below every score detect() gives: the stack alone is read as mocha's only when nothing else recognises the output.
  detectHinted: (text) => {
    const sample = headAndTail(text, 65536);
    return NODE_ERROR.test(sample) && STACK_FRAME.test(sample) ? 0.4 : 0;
  },
  parse: (text) => parseMochaSpec(text),
  lines: () => mochaLines(),
};

function detectMocha(text: string): number {
  const sample = headAndTail(text, 65536);
  if (hasMochaJson(sample)) return 0.97;
  if (/^ {2}\d+ passing \(\d+(?:ms|s|m)\)\s*$/m.test(sample)) return 0.95;
  if (/^ {2}\d+ failing\s*$/m.test(sample)) return 0.85;
  if (/^\s*Exception during run:/m.test(sample)) return 0.8;
  return 0;
}

export function parseMochaSpec(text: string): ParseResult {
  return parseText(mochaLines(), text);
}

/** One numbered failure being read: its title lines first, then its message until the next entry or epilogue. */
interface Entry {
  titles: string[];
  body: string[] | null;
}

/** mocha's spec output, or its JSON reporter's document (pretty-printed, from its opening brace on). */
export function mochaLines(): LineParser {
  return withJsonDocument(mochaSpecLines(), (line, next) => line === '{' && /^\s*"stats": \{/.test(next), (doc) => parseMochaJson(doc));
}

function mochaSpecLines(): LineParser {
  const failing = new Failures();
  let passed: number | null = null;
  let failed: number | null = null;
  let skipped: number | null = null;
  let loadError = false;
  let inList = false;
  let expected = 1;
  // The tree is read up to the first epilogue; a script running mocha twice gets counts only.
  const tree = new TitleTree(2);
  const listed = new ReportedTests();
  let epilogues = 0;
  let entry: Entry | null = null;

  const closeEntry = (): void => {
    if (!entry) return;
    const { titles, body } = splitTitles(entry.titles);
    // Only trailing space is dropped: assertion diffs align a caret under a column, so inner indentation stays.
    failing.add({ id: titles.join(' > '), message: capMessage([...body, ...(entry.body ?? [])].join('\n').trim()) });
    entry = null;
  };

  /** A line inside an entry; false when it ends the entry (and is read as an ordinary line). */
  const entryLine = (e: Entry, line: string): boolean => {
    if (e.body === null) {
      // Each title of the path sits two spaces deeper than the one before, whatever it ends with.
      if (indentOf(line) === TITLE_INDENT + 2 * e.titles.length && line.trim() !== '') {
        e.titles.push(line.trim());
        return true;
      }
      e.body = [];
    }
    if (ENTRY.test(line) || PASSING.test(line)) return false;
    keepLine(e.body, line.replace(/\s+$/, ''));
    return true;
  };

  return {
    push(line) {
      if (entry) {
        if (entryLine(entry, line)) return;
        closeEntry();
      }
      const numbered = inList ? ENTRY.exec(line) : null;
      if (numbered && Number(numbered[1]) === expected) {
        entry = { titles: [numbered[2]], body: null };
        expected++;
        return;
      }
      const leaf = epilogues === 0 && !inList ? tree.read(line, treeLeaf) : null;
      if (leaf) listed.add(leaf.id, leaf.status);
      const pass = PASSING.exec(line);
      if (pass) {
        epilogues++;
        // Several mocha runs in one script each print an epilogue; their counts add up.
        passed = (passed ?? 0) + Number(pass[1]);
        failed = failed ?? 0;
        skipped = skipped ?? 0;
        inList = false;
        return;
      }
      const pend = PENDING.exec(line);
      if (pend && passed !== null) {
        skipped = (skipped ?? 0) + Number(pend[1]);
        return;
      }
      const fail = FAILING.exec(line);
      if (fail) {
        failed = (failed ?? 0) + Number(fail[1]);
        inList = true;
        expected = 1;
        return;
      }
      if (LOAD_ERROR.test(line)) loadError = true;
    },
    finish() {
      closeEntry();
      // mocha prints "N passing" even with 0 passing; without it the run never got to report.
      if (passed === null && failed === null) loadError = true;
      // Console output inside the tree can hide a title: the listing is used only when it adds up to the epilogue.
      const trusted = epilogues === 1 && listed.reports('passed') === passed && listed.reports('skipped') === (skipped ?? 0);
      const failures = failing.list();
      for (const f of failures) listed.add(f.id, 'failed');
      return { runner: 'mocha', failing: failures, tests: trusted ? listed.list() : null, passedCount: passed, failedCount: failed, skippedCount: skipped, loadError, diagnostics: [] };
    },
  };
}

/**
 * The title path of a numbered failure, and any message lines read as titles. mocha appends ":" to the last title
 * only, so the path ends at the last line ending in ":" — a title's own ":" (a suite "Scalar style dump:", a test
 * "ends in a colon:" printed "ends in a colon::") stays part of it.
 */
function splitTitles(lines: readonly string[]): { titles: string[]; body: string[] } {
  let end = lines.length - 1;
  while (end > 0 && !lines[end].endsWith(':')) end--;
  // No ":" at all is no path mocha printed whole (a title holding a line break): every line read stays a title.
  if (!lines[end].endsWith(':')) return { titles: [...lines], body: [] };
  const titles = lines.slice(0, end + 1);
  titles[end] = titles[end].replace(/:$/, '');
  return { titles, body: lines.slice(end + 1) };
}

/** A line of the tree above the epilogue; failures are named by the numbered list after it, with their full path. */
function treeLeaf(text: string): { title: string; status: 'passed' | 'skipped' } | 'ignore' | null {
  const passed = TREE_PASSED.exec(text);
  if (passed) return { title: passed[1], status: 'passed' };
  const pending = TREE_PENDING.exec(text);
  if (pending) return { title: pending[1], status: 'skipped' };
  return TREE_FAILED.test(text) ? 'ignore' : null;
}
