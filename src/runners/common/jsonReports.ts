// Runners' own machine-readable reports, the easiest outputs of all to read exactly: jest `--json` and vitest
// `--reporter=json` (the same document), mocha `--reporter json`, and `go test -json` (events that carry the -v text).
// Each may follow other output on the same stream (npm's banner, jest's text on stderr), so the document is found.
import type { FailingTest, LoadErrorFile, ReportedTest, TestStatus } from '../../ports/verifier';
import type { LineParser, ParseResult } from '../types';
import { MAX_LINE_CHARS } from './lineParser';

// jest writes its keys sorted; vitest writes its own order. The first key tells them apart.
const JEST_DOC = /^\{"numFailedTestSuites":/m;
const VITEST_DOC = /^\{"numTotalTestSuites":/m;
const MOCHA_DOC = /^\{\s*\n\s*"stats": \{/m;
const GO_EVENT = /^\{"Time":"[^"]*","Action":"/m;

export const hasJestJson = (text: string): boolean => JEST_DOC.test(text);
export const hasVitestJson = (text: string): boolean => VITEST_DOC.test(text);
export const hasMochaJson = (text: string): boolean => MOCHA_DOC.test(text);
export const hasGoJson = (text: string): boolean => GO_EVENT.test(text);


/** The JSON document that starts where `start` matches: the longest prefix of the rest that parses. */
function documentAt(text: string, start: RegExp): unknown {
  const m = start.exec(text);
  if (!m) return undefined;
  const rest = text.slice(m.index);
  for (let end = rest.lastIndexOf('}'); end > 0; end = rest.lastIndexOf('}', end - 1)) {
    try {
      return JSON.parse(rest.slice(0, end + 1));
    } catch {
      // Text after the document (a log line, a second report): try the previous closing brace.
    }
  }
  return undefined;
}

interface JestAssertion { ancestorTitles?: string[]; title?: string; status?: string; failureMessages?: string[] }
interface JestFile { name?: string; status?: string; message?: string; assertionResults?: JestAssertion[] }

const JEST_STATUS: Record<string, TestStatus> = { passed: 'passed', failed: 'failed' };

/** jest --json / vitest --reporter=json: IDs are the title path, as jest's and vitest's default reporters give it. */
export function parseJestJson(text: string, runner: 'jest' | 'vitest'): ParseResult | null {
  const doc = documentAt(text, runner === 'jest' ? JEST_DOC : VITEST_DOC) as { testResults?: JestFile[] } | undefined;
  if (!doc || !Array.isArray(doc.testResults)) return null;
  const failing: FailingTest[] = [];
  const tests: ReportedTest[] = [];
  const loadErrors: LoadErrorFile[] = [];
  let loadError = false;
  for (const file of doc.testResults) {
    const results = Array.isArray(file.assertionResults) ? file.assertionResults : [];
    // A file that failed with no test of its own never ran (a syntax error, a missing import).
    if (file.status === 'failed' && !results.some((a) => a.status === 'failed')) {
      loadError = true;
      if (file.name && results.length === 0) loadErrors.push({ file: file.name, message: firstLines(file.message ?? '') });
    }
    for (const a of results) {
      const id = [...(a.ancestorTitles ?? []), a.title ?? ''].join(' > ');
      const status = JEST_STATUS[a.status ?? ''] ?? 'skipped';
      tests.push({ id, status });
      if (status === 'failed') {
        const failure: FailingTest = { id, message: firstLines((a.failureMessages ?? []).join('\n')) };
        if (file.name) failure.file = file.name;
        failing.push(failure);
      }
    }
  }
  const count = (s: TestStatus) => tests.filter((t) => t.status === s).length;
  return { runner, failing, tests, passedCount: count('passed'), failedCount: count('failed'), skippedCount: count('skipped'), loadError, loadErrors, diagnostics: [] };
}

interface MochaTest { title?: string; fullTitle?: string; file?: string; err?: { message?: string; stack?: string } }

/**
 * mocha --reporter json. Its tests carry only the full title joined with spaces, so the ID is that title as written
 * — the contract's rule for mocha's TAP and xunit reports, which join the same way.
 */
export function parseMochaJson(text: string): ParseResult | null {
  const doc = documentAt(text, MOCHA_DOC) as { stats?: unknown; passes?: MochaTest[]; failures?: MochaTest[]; pending?: MochaTest[] } | undefined;
  if (!doc || !doc.stats) return null;
  const idOf = (t: MochaTest) => (t.fullTitle ?? t.title ?? '').trim();
  const passes = doc.passes ?? [];
  const pending = doc.pending ?? [];
  const failures = doc.failures ?? [];
  const failing: FailingTest[] = failures.map((t) => {
    const f: FailingTest = { id: idOf(t), message: firstLines(t.err?.stack || t.err?.message || '') };
    if (t.file) f.file = t.file;
    return f;
  });
  const tests: ReportedTest[] = [
    ...passes.map((t): ReportedTest => ({ id: idOf(t), status: 'passed' })),
    ...pending.map((t): ReportedTest => ({ id: idOf(t), status: 'skipped' })),
    ...failing.map((f): ReportedTest => ({ id: f.id, status: 'failed' })),
  ];
  return { runner: 'mocha', failing, tests, passedCount: passes.length, failedCount: failures.length, skippedCount: pending.length, loadError: false, diagnostics: [] };
}

/** The Output of one `go test -json` line: "" for an event without output, null for a line that is not an event. */
export function goEventOutput(line: string): string | null {
  if (!line.startsWith('{"Time"')) return null;
  try {
    const ev = JSON.parse(line) as { Action?: string; Output?: string };
    return ev.Action === 'output' && typeof ev.Output === 'string' ? ev.Output : '';
  } catch {
    return null;
  }
}

/** A failure message's first lines: the assertion, not the runner's own frames. */
function firstLines(message: string, max = 40): string {
  const lines = message.replace(/\s+$/, '').split('\n');
  return lines.length > max ? [...lines.slice(0, max), `… (${lines.length - max} more lines)`].join('\n') : lines.join('\n');
}

/**
 * A text reader that also watches for a runner's JSON document: the lines from the one `starts` recognises on are
 * kept (the document, however large, is what is read), and when it parses, it wins over the text. Lines come whole
 * (jest writes its document as one line); the text reader gets them cut as any other line parser does.
 */
export function withJsonDocument(
  text: LineParser, starts: (line: string, next: string) => boolean, read: (doc: string) => ParseResult | null,
): LineParser {
  let doc: string[] | null = null;
  // A document is recognised by its first two lines (mocha's pretty JSON opens with a lone "{"): one line waits.
  let held: string | null = null;
  const take = (line: string, next: string | null): void => {
    if (doc === null && next !== null && starts(line, next)) doc = [];
    if (doc !== null) doc.push(line);
    else text.push(line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) : line);
  };
  return {
    wholeLines: true,
    push(line) {
      if (held !== null) take(held, line);
      held = line;
    },
    finish() {
      if (held !== null) take(held, '');
      const result = text.finish();
      return (doc !== null ? read(doc.join('\n')) : null) ?? result;
    },
  };
}
