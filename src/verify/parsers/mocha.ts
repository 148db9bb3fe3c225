// mocha's spec (and dot/list: they share its epilogue) output. The tree above the epilogue is not read: the
// numbered failure list after "N failing" names every failure with its full title path, one title a line:
//   "  1) Suite\n       nested\n         test:" — each deeper title indented two more, the last one ending in ":".
import type { FailingTest, OutputParser, ParseResult, ReportedTest } from '../types';
import { headAndTail, indentOf, TitleTree } from './textTools';
import { hasMochaJson, parseMochaJson } from './jsonReports';

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
  if (hasMochaJson(text)) {
    const json = parseMochaJson(text);
    if (json) return json;
  }
  const lines = text.split(/\r?\n/);
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

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const entry = inList ? ENTRY.exec(line) : null;
    if (entry && Number(entry[1]) === expected) {
      i = readEntry(lines, i, entry[2], failing);
      expected++;
      continue;
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
      continue;
    }
    const pend = PENDING.exec(line);
    if (pend && passed !== null) {
      skipped = (skipped ?? 0) + Number(pend[1]);
      continue;
    }
    const fail = FAILING.exec(line);
    if (fail) {
      failed = (failed ?? 0) + Number(fail[1]);
      inList = true;
      expected = 1;
      continue;
    }
    if (LOAD_ERROR.test(line)) loadError = true;
  }
  // mocha prints "N passing" even with 0 passing; without it the run never got to report.
  if (passed === null && failed === null) loadError = true;
  const tests = [...listed, ...failing.map((f): ReportedTest => ({ id: f.id, status: 'failed' }))];
  // Console output inside the tree can hide a title: the listing is used only when it adds up to the epilogue.
  const trusted = epilogues === 1 && listed.filter((t) => t.status === 'passed').length === passed
    && listed.filter((t) => t.status === 'skipped').length === (skipped ?? 0);
  return {
    runner: 'mocha',
    failing,
    tests: trusted ? tests : null,
    passedCount: passed,
    failedCount: failed,
    skippedCount: skipped,
    loadError,
    diagnostics: [],
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

/** Reads one numbered failure starting at `start`; returns the index of its last line. */
function readEntry(lines: string[], start: number, first: string, out: FailingTest[]): number {
  const titles = [first];
  let i = start;
  while (i + 1 < lines.length) {
    const next = lines[i + 1];
    const wanted = TITLE_INDENT + 2 * titles.length;
    const last = titles[titles.length - 1];
    const isContinuation =
      indentOf(next) === wanted && next.trim() !== '' && (!last.endsWith(':') || next.trimEnd().endsWith(':'));
    if (!isContinuation) break;
    titles.push(next.trim());
    i++;
  }
  titles[titles.length - 1] = titles[titles.length - 1].replace(/:$/, '');

  const body: string[] = [];
  for (i++; i < lines.length; i++) {
    const line = lines[i];
    if (ENTRY.test(line) || PASSING.test(line)) break;
    body.push(line.replace(/\s+$/, ''));
  }
  // Only trailing space is dropped: assertion diffs align a caret under a column, so inner indentation stays.
  out.push({ id: titles.join(' > '), message: body.join('\n').trim() });
  return i - 1;
}
