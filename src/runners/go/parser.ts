// `go test` output, plain and -v. IDs are test/subtest names split on "/" (no package); only leaves count,
// since go also reports every parent of a failing subtest as failed.
import type { LoadErrorFile } from '../../ports/verifier';
import type { LineParser, OutputParser, ParseResult } from '../types';
import { goEventOutput, hasGoJson } from '../common/jsonReports';
import { keepLine, parseText } from '../common/lineParser';
import { Failures, ReportedTests } from '../common/reportedTests';

const RESULT = /^(\s*)--- (FAIL|PASS|SKIP): (.+) \((\d+(?:\.\d+)?s)\)$/;
const EVENT = /^=== (RUN|CONT|NAME|PAUSE)\s+(.+)$/;
const PACKAGE = /^(ok|FAIL|\?)\s+(\S+)\s+(.*)$/;
const LOCATION = /^\s*([^\s:]+\.go):\d+: /;
// "# example.com/m/pkg [example.com/m/pkg.test]": the compiler's errors for a package follow.
const BUILD_HEADER = /^# (\S+)(?: \[\S+\])?$/;
// A panic's stack can be hundreds of lines; the first ones say what and where.
const MAX_PANIC_LINES = 40;

interface TestState {
  status: 'FAIL' | 'PASS' | 'SKIP';
  /** Its "--- PASS/FAIL/SKIP" line was seen (a binary that died mid-test never prints one). */
  ended?: boolean;
  output: string[];
  file?: string;
}

function dedent(lines: string[]): string {
  const first = lines.find((l) => l.trim() !== '');
  if (first === undefined) return '';
  const indent = first.length - first.trimStart().length;
  return lines
    .map((l) => (l.slice(0, indent).trim() === '' ? l.slice(indent) : l.trimStart()).trimEnd())
    .join('\n')
    .trim();
}

export const goParser: OutputParser = {
  format: 'go',

  detect(text: string): number {
    if (hasGoJson(text.slice(0, 65536))) return 0.97;
    let score = 0;
    for (const line of text.split(/\r?\n/)) {
      if (EVENT.test(line)) score += 2;
      else if (RESULT.test(line)) score += 3;
      else if (/^(ok|FAIL)\s+\S+\s+(\d+\.\d+s|\(cached\)|\[(build|setup) failed\]|\[no test files\])/.test(line)) score += 3;
      else if (/^\?\s+\S+\s+\[no test files\]$/.test(line)) score += 3;
      if (score >= 6) break;
    }
    return Math.min(1, score / 6) * 0.95;
  },

  parse: (text: string): ParseResult => parseText(goLines(), text),
  lines: () => goLines(),
};

function goTextLines(): LineParser {
  const tests = new Map<string, TestState>();
  const order: string[] = [];
  let verbose = false;
  let loadError = false;
  let current: string | null = null;
  let panicking = false;
  let panicLines = 0;
  let stoppedEarly: string | undefined;
  // Packages whose tests ran ("ok"/"FAIL"), and those that ran none ("[no test files]", "[no tests to run]").
  let packagesTested = 0;
  let packagesWithoutTests = 0;

  const state = (name: string): TestState => {
    let s = tests.get(name);
    if (!s) {
      s = { status: 'PASS', output: [] };
      tests.set(name, s);
      order.push(name);
    }
    return s;
  };

  const failing = new Failures();
  const reported = new ReportedTests();
  const loadErrors: LoadErrorFile[] = [];
  // "# pkg [pkg.test]" heads the compiler's errors for a package; its "FAIL pkg [build failed]" line comes later.
  const buildErrors = new Map<string, string[]>();
  let building: string[] | null = null;
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  // Each package's results end with its "ok"/"FAIL" line; names only nest within one package.
  const flush = (): void => {
    const parents = new Set<string>();
    for (const name of order) {
      for (let i = name.indexOf('/'); i > 0; i = name.indexOf('/', i + 1)) parents.add(name.slice(0, i));
    }
    for (const name of order) {
      if (parents.has(name)) continue;
      const s = tests.get(name)!;
      if (s.ended) reported.add(name.split('/').join(' > '), s.status === 'PASS' ? 'passed' : s.status === 'SKIP' ? 'skipped' : 'failed');
      if (s.status === 'PASS') passed++;
      else if (s.status === 'SKIP') skipped++;
      else {
        failed++;
        // Two packages' tests of one name share an ID: both are counted (the first kept), and the verifier says so.
        const id = name.split('/').join(' > ');
        const message = dedent(s.output);
        failing.add(s.file === undefined ? { id, message } : { id, file: s.file, message });
      }
    }
    tests.clear();
    order.length = 0;
  };

  return {
    push(line: string): void {
      const pkg = PACKAGE.exec(line);
      if (pkg) {
        flush();
        building = null;
        if (/\[no test files\]|\[no tests to run\]/.test(pkg[3])) packagesWithoutTests++;
        else packagesTested++;
        if (/\[(build|setup) failed\]/.test(pkg[3])) {
          loadError = true;
          // The package's tests did not build: to the person, its test files did not load.
          loadErrors.push({ file: pkg[2], message: (buildErrors.get(pkg[2]) ?? []).join('\n') });
        }
        current = null;
        panicking = false;
        return;
      }
      const header = BUILD_HEADER.exec(line);
      if (header) {
        building = buildErrors.get(header[1]) ?? [];
        buildErrors.set(header[1], building);
        current = null;
        return;
      }
      if (building && !EVENT.test(line) && !RESULT.test(line) && !/^go: /.test(line) && line !== 'PASS' && line !== 'FAIL') {
        if (line.trim() !== '') keepLine(building, line);
        return;
      }
      building = null;
      if (line === 'PASS' || line === 'FAIL') {
        current = null;
        panicking = false;
        return;
      }
      if (panicking) {
        if (current && panicLines++ < MAX_PANIC_LINES) tests.get(current)?.output.push(line);
        return;
      }
      const ev = EVENT.exec(line);
      if (ev) {
        verbose = true;
        current = ev[2];
        state(current);
        return;
      }
      const res = RESULT.exec(line);
      if (res) {
        const s = state(res[3]);
        s.status = res[2] as TestState['status'];
        s.ended = true;
        // Without -v a test's log lines follow its result line.
        current = res[3];
        return;
      }
      if (line.startsWith('panic: ')) {
        // A panic with no test running (init, TestMain) means the package's tests never ran.
        if (current === null || tests.get(current)?.status !== 'FAIL') loadError = true;
        // One inside a test ends the package's test binary: the tests after it never ran.
        else stoppedEarly = 'a test panicked, which ends its package\'s test binary, so the tests after it did not run; fix the panic to see them.';
        panicking = true;
        panicLines = 1;
        if (current) tests.get(current)?.output.push(line);
        return;
      }
      if (/^go: /.test(line) || /^# \S+/.test(line)) {
        // "go: ..." is the go command failing; "# pkg" heads compiler errors (also flagged by [build failed]).
        if (/^go: /.test(line)) loadError = true;
        current = null;
        return;
      }
      if (current && /^\s/.test(line) && line.trim() !== '') {
        const s = tests.get(current);
        if (s) {
          keepLine(s.output, line);
          if (s.file === undefined) {
            const loc = LOCATION.exec(line);
            if (loc) s.file = loc[1];
          }
        }
      }
    },
    finish(): ParseResult {
      flush();
      // Without -v go names no test that passed, but a run whose every package says it has none ran none at all.
      const ranNone = packagesWithoutTests > 0 && packagesTested === 0 && failed === 0 && !loadError;
      const counted = verbose || ranNone;
      return {
        runner: 'go',
        failing: failing.list(),
        // Without -v a passing test leaves no line: only the failures are named.
        tests: counted ? reported.list() : null,
        // Without -v go prints nothing for tests that pass or skip.
        passedCount: counted ? passed : null,
        failedCount: failed,
        skippedCount: counted ? skipped : null,
        loadError,
        loadErrors,
        diagnostics: [],
        ...(stoppedEarly ? { stoppedEarly } : {}),
      };
    },
  };
}

/**
 * go test -json is test2json's wrapping of the -v text: an event's Output is part of that text, and lines that are
 * not events (compiler errors on stderr) stay where they were. Both feed the same text reader.
 */
function goLines(): LineParser {
  const text = goTextLines();
  let partial = '';
  return {
    push(line) {
      const output = goEventOutput(line);
      if (output === null) {
        text.push(line);
        return;
      }
      const lines = (partial + output).split('\n');
      partial = lines.pop() ?? '';
      for (const l of lines) text.push(l);
    },
    finish() {
      if (partial) text.push(partial);
      return text.finish();
    },
  };
}
