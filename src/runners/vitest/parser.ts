// Reads vitest's default reporter: the "Failed Tests" / "Failed Suites" sections (" FAIL  file > Suite > test"
// headers followed by the error) and the "Test Files" / "Tests" summary. The per-file tick tree above them only
// names leaves, so it is ignored.
import type { FailingTest, LoadErrorFile } from '../../ports/verifier';
import type { LineParser, OutputParser, ParseResult } from '../types';
import { countOf, headAndTail, trimBlankLines } from '../common/textTools';
import { hasVitestJson, parseJestJson, withJsonDocument } from '../common/jsonReports';
import { keepLine, parseText } from '../common/lineParser';

const SECTION = /^⎯+ (Failed Tests|Failed Suites|Unhandled Errors?|Errors?)(?: \d+)? ⎯+\s*$/;
const SEPARATOR = /^⎯+(?:\[\d+\/\d+\]⎯*)?\s*$/;
// Workspaces prefix the file with "|project| ".
const FAIL_HEADER = /^ FAIL {2}(?:\|[^|]*\| )?(.+?)\s*$/;
const FILES_SUMMARY = /^\s*Test Files {2,}(.*?)\s*\((\d+)\)\s*$/;
const TESTS_SUMMARY = /^\s*Tests {2,}(.*?)\s*\((\d+)\)\s*$/;
const NO_TESTS = /^No test files found, exiting with code \d+/;

type Section = 'tests' | 'suites' | 'other' | undefined;

function trimBlank(lines: string[]): string {
  return trimBlankLines(lines).map((l) => l.replace(/\s+$/, '')).join('\n');
}

function vitestTextLines(): LineParser {
  const failing: FailingTest[] = [];
  const seen = new Set<string>();
  const filesWithTestFailures = new Set<string>();
  let loadError = false;
  let passed: number | null = null;
  let failed: number | null = null;
  let skipped: number | null = null;
  let failedFiles = 0;
  let stoppedEarly: string | undefined;
  let section: Section;
  // Vitest prints one error under several consecutive FAIL headers when the tests failed identically.
  let headers: Array<{ file: string; id: string }> = [];
  // Files under "Failed Suites" whose error is being read: files that did not load.
  let notLoaded: string[] = [];
  const loadErrors: LoadErrorFile[] = [];
  let body: string[] = [];

  const flush = (): void => {
    if (notLoaded.length > 0) {
      const message = trimBlank(body);
      for (const file of notLoaded) if (!loadErrors.some((e) => e.file === file)) loadErrors.push({ file, message });
      notLoaded = [];
      body = [];
    }
    if (headers.length === 0) return;
    const message = trimBlank(body);
    for (const { file, id } of headers) {
      const key = `${file}\u0000${id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      filesWithTestFailures.add(file);
      failing.push({ id, file, message });
    }
    headers = [];
    body = [];
  };

  return {
    push(raw: string): void {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      const sec = SECTION.exec(line);
      if (sec) {
        flush();
        section = sec[1] === 'Failed Tests' ? 'tests' : sec[1] === 'Failed Suites' ? 'suites' : 'other';
        return;
      }
      if (section === 'tests' || section === 'suites') {
        const header = FAIL_HEADER.exec(line);
        if (header) {
          if (body.some((l) => l.trim() !== '')) flush();
          if (section === 'suites') {
            // A file that failed to import, or a suite whose hook threw: its tests never ran. The first is a file
            // that did not load ("FAIL  a.test.ts [ a.test.ts ]"); a suite is named after its file ("a.test.ts > S").
            loadError = true;
            const name = header[1].replace(/\s*\[ .* \]$/, '');
            if (!name.includes(' > ')) notLoaded.push(name);
            return;
          }
          const parts = header[1].split(' > ');
          const file = parts[0];
          const id = parts.slice(1).join(' > ');
          if (id !== '') headers.push({ file, id });
          return;
        }
        if (SEPARATOR.test(line)) {
          flush();
          return;
        }
        if (headers.length > 0 || notLoaded.length > 0) keepLine(body, line);
      }
      const files = FILES_SUMMARY.exec(line);
      if (files) {
        flush();
        section = undefined;
        failedFiles = countOf(files[1], 'failed');
        return;
      }
      const tests = TESTS_SUMMARY.exec(line);
      if (tests) {
        flush();
        section = undefined;
        passed = countOf(tests[1], 'passed');
        failed = countOf(tests[1], 'failed');
        // A todo test is not run either; to the loop it is as skipped as a skipped one.
        skipped = countOf(tests[1], 'skipped') + countOf(tests[1], 'todo');
        // "1 failed | 1 passed | 1 skipped (6)": --bail left the other three unrun.
        const reported = passed + failed + skipped;
        if (reported < Number(tests[2])) {
          stoppedEarly = `vitest stopped early (--bail): ${reported} of ${tests[2]} tests ran; run without --bail to see every failure.`;
        }
        return;
      }
      if (NO_TESTS.test(line)) loadError = true;
    },
    finish(): ParseResult {
      flush();

      // A file that failed with no failing test of its own did not load, even when no section said so.
      if (failedFiles > filesWithTestFailures.size) loadError = true;

      return {
        runner: 'vitest',
        failing,
        // The default reporter's tree names leaves without their suites: counts only.
        tests: null,
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

// A 50 MB log is scored on its head and tail only: the RUN banner opens it and the summary closes it.
const SAMPLE = 256 * 1024;

function detect(text: string): number {
  const sample = headAndTail(text, SAMPLE);
  if (hasVitestJson(sample)) return 0.97;
  let score = 0;
  if (/^\s*Test Files {2,}.*\(\d+\)\s*$/m.test(sample)) score += 0.5;
  if (/^\s*Tests {2,}.*\(\d+\)\s*$/m.test(sample)) score += 0.2;
  if (/^ RUN {1,2}v\d+\.\d+/m.test(sample)) score += 0.15;
  if (/^⎯+ Failed (Tests|Suites) \d+ ⎯+/m.test(sample) || /^ FAIL {2}\S.* > /m.test(sample)) score += 0.1;
  if (/^\s*Duration {2,}\d/m.test(sample)) score += 0.05;
  return Math.min(1, score);
}

/** vitest's default reporter, or its JSON reporter's document (one line). */
function vitestLines(): LineParser {
  return withJsonDocument(vitestTextLines(), (line) => line.startsWith('{"numTotalTestSuites":'), (doc) => parseJestJson(doc, 'vitest'));
}

export const vitestParser: OutputParser = { format: 'vitest', detect, parse: (text) => parseText(vitestLines(), text), lines: vitestLines };
