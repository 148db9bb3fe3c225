// What the Testing view and the Problems view show of a run, as plain data: the tests the witness names (failing with
// their message and, where the runner printed one, file:line; green again since the baseline as passed) and the
// type errors by file. No vscode, so it is tested directly; testingView.ts puts it on a TestController.
import type { WitnessSummary } from '../../ports/runState';

export interface TestEntry {
  id: string;
  /** The last part of the title path ("Cart > total" → "total"); the full id is the description. */
  label: string;
  /** Workspace-relative file, when the runner named one. */
  file?: string;
  /** 1-based line, when the runner's output gives file:line. */
  line?: number;
  /** errored: a test file that did not load — none of its tests ran (VS Code's "errored", not "failed"). */
  state: 'failed' | 'passed' | 'errored';
  message?: string;
}

export interface ProblemEntry {
  line: number;
  column: number;
  code: string;
  message: string;
  /** The checker that reported it ("tsc", "eslint", "ts" from the Problems view…). */
  source?: string;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const SOURCE_AT = /([\w@./-]+\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb)):(\d+)(?::\d+)?/;

/**
 * Expected and actual values when the message states both, in the shapes runners print them: jest/vitest
 * ("Expected: 5" / "Received: -1"), node's assert ("-1 !== 5" after "strictly equal"; "+ actual - expected"
 * diffs are left as text), chai ("expected -1 to equal 5"). Null when the message does not say both.
 */
export function expectedActual(message: string): { expected: string; actual: string } | null {
  const expected = /^\s*Expected(?: value)?:\s*(.+)$/m.exec(message);
  const received = /^\s*(?:Received|Actual)(?: value)?:\s*(.+)$/m.exec(message);
  if (expected && received) return { expected: expected[1].trim(), actual: received[1].trim() };
  const strict = /(?:strictly|deep-equal|loosely) (?:equal|deep-equal)[^\n]*:\s*\n\s*\n(.+?) !==? (.+)$/m.exec(message);
  if (strict) return { expected: strict[2].trim(), actual: strict[1].trim() };
  const chai = /expected (.+?) to (?:deeply |strictly )?equal (.+?)$/m.exec(message);
  if (chai) return { expected: chai[2].trim(), actual: chai[1].trim() };
  return null;
}

/** The first file:line of the test's file in its message; else the first source location printed at all. */
export function locate(file: string | undefined, message: string): { file?: string; line?: number } {
  if (file) {
    const m = new RegExp(`${escapeRe(file)}:(\\d+)`).exec(message);
    return m ? { file, line: Number(m[1]) } : { file };
  }
  const m = SOURCE_AT.exec(message);
  return m ? { file: m[1].replace(/^\.\//, ''), line: Number(m[2]) } : {};
}

export function testEntries(state: { baseline: { witness: WitnessSummary }; current: { witness: WitnessSummary } }): TestEntry[] {
  const now = state.current.witness;
  if (now.unmeasured) return [];
  const failing = new Set(now.failing);
  const entries: TestEntry[] = now.failing.map((id) => {
    const failure = (now.failures ?? []).find((f) => f.id === id);
    const where = locate(failure?.file, failure?.message ?? '');
    return { id, label: lastPart(id), ...where, state: 'failed', message: failure?.message || 'Failing.' };
  });
  // A test file that did not load sits under its file, as the one thing known about it: why it did not load.
  for (const e of now.loadErrors ?? []) entries.push({ id: e.file, label: 'did not load', file: e.file, state: 'errored', message: e.message || 'This test file did not load.' });
  // Green since the baseline: failing then and reported passing now (not merely absent from the output).
  const ran = now.ran ? new Set(now.ran) : null;
  for (const id of state.baseline.witness.failing) {
    if (failing.has(id) || (ran && !ran.has(id))) continue;
    const before = (state.baseline.witness.failures ?? []).find((f) => f.id === id);
    entries.push({ id, label: lastPart(id), ...(before?.file ? { file: before.file } : {}), state: 'passed' });
  }
  return entries;
}

/** The Testing view's item for a file: its tests are its children. */
export function fileItemId(file: string): string {
  return `file:${file}`;
}

/**
 * What "Fix until green" on the selected Testing view items asks the loop to fix (LoopConfig.focus): a test item is
 * its test, a file item every test failing in that file; only failing tests count (a passing one has nothing to
 * fix). No selection (the whole tree run): an empty focus, the whole suite.
 */
export function focusForSelection(selectedIds: readonly string[], entries: readonly TestEntry[]): string[] {
  const failing = entries.filter((e) => e.state === 'failed');
  const focus = selectedIds.flatMap((id) => failing.filter((e) => e.id === id || (e.file !== undefined && fileItemId(e.file) === id)).map((e) => e.id));
  return [...new Set(focus)];
}

export function problemsByFile(witness: WitnessSummary): Map<string, ProblemEntry[]> {
  const byFile = new Map<string, ProblemEntry[]>();
  for (const d of witness.diagnostics) {
    const list = byFile.get(d.file) ?? [];
    list.push({ line: d.line, column: d.column, code: d.code, message: d.message, source: d.source ?? 'tsc' });
    byFile.set(d.file, list);
  }
  return byFile;
}

function lastPart(id: string): string {
  const parts = id.split(' > ');
  return parts[parts.length - 1] || id;
}
