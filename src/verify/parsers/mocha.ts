// mocha's spec (and dot/list: they share its epilogue) output. The tree above the epilogue is not read: the
// numbered failure list after "N failing" names every failure with its full title path, one title a line:
//   "  1) Suite\n       nested\n         test:" — each deeper title indented two more, the last one ending in ":".
import type { FailingTest, ReportedTest } from '../../ports/verifier';
import type { OutputParser, ParseResult } from '../types';
import { headAndTail, indentOf, TitleTree } from './textTools';
import { hasMochaJson, parseMochaJson, withJsonDocument } from './jsonReports';
import { capMessage, keepLine, parseText } from './lineParser';
import type { LineParser } from './lineParser';

const PASSING = /^\s*(\d+) passing\b/;
const FAILING = /^\s*(\d+) failing\s*$/;
const PENDING = /^\s*(\d+) pending\s*$/;
const ENTRY = /^ {2}(\d+)\) (.*)$/;
// The tree above the epilogue: "✔ title (12ms)" passed, "3) title" failed, "- title" pending, else a suite title.
const TREE_PASSED = /^(?:✔|✓) (.*?)(?: \(\d+ms\))?$/;
const TREE_FAILED = /^\d+\) /;
const TREE_PENDING = /^- (.*)$/;
// Printed by mocha when a spec file cannot be loaded; no summary follows.
const LOAD_ERROR = /^\s*(Exception during run:|Error: No test files found)/;
// The title path sits at 5 spaces plus 2 per level.
const TITLE_INDENT = 5;

export const mochaParser: OutputParser = {
  format: 'mocha',
  detect: detectMocha,
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
  const failing: FailingTest[] = [];
  let passed: number | null = null;
  let failed: number | null = null;
  let skipped: number | null = null;
  let loadError = false;
  let inList = false;
  let expected = 1;
  // The tree is read up to the first epilogue; a script running mocha twice gets counts only.
  const tree = new TitleTree(2);
  const listed: ReportedTest[] = [];
  let epilogues = 0;
  let entry: Entry | null = null;

  const closeEntry = (): void => {
    if (!entry) return;
    const titles = [...entry.titles];
    titles[titles.length - 1] = titles[titles.length - 1].replace(/:$/, '');
    // Only trailing space is dropped: assertion diffs align a caret under a column, so inner indentation stays.
    failing.push({ id: titles.join(' > '), message: capMessage((entry.body ?? []).join('\n').trim()) });
    entry = null;
  };

  /** A line inside an entry; false when it ends the entry (and is read as an ordinary line). */
  const entryLine = (e: Entry, line: string): boolean => {
    if (e.body === null) {
      const last = e.titles[e.titles.length - 1];
      const continues = indentOf(line) === TITLE_INDENT + 2 * e.titles.length && line.trim() !== ''
        && (!last.endsWith(':') || line.trimEnd().endsWith(':'));
      if (continues) {
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
      if (leaf) listed.push(leaf);
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
      const tests = [...listed, ...failing.map((f): ReportedTest => ({ id: f.id, status: 'failed' }))];
      // Console output inside the tree can hide a title: the listing is used only when it adds up to the epilogue.
      const trusted = epilogues === 1 && listed.filter((t) => t.status === 'passed').length === passed
        && listed.filter((t) => t.status === 'skipped').length === (skipped ?? 0);
      return { runner: 'mocha', failing, tests: trusted ? tests : null, passedCount: passed, failedCount: failed, skippedCount: skipped, loadError, diagnostics: [] };
    },
  };
}

/** A line of the tree above the epilogue; failures are named by the numbered list after it, with their full path. */
function treeLeaf(text: string): { title: string; status: 'passed' | 'skipped' } | 'ignore' | null {
  const passed = TREE_PASSED.exec(text);
  if (passed) return { title: passed[1], status: 'passed' };
  const pending = TREE_PENDING.exec(text);
  if (pending) return { title: pending[1], status: 'skipped' };
  return TREE_FAILED.test(text) ? 'ignore' : null;
}
