// PHPUnit's console output (9 and 10): the defect lists ("There were 2 failures:", `1) Class::method with data set
// "name" (data)`), the summary (`OK (22 tests, …)`, `Tests: 25, Assertions: 19, Errors: 2, Failures: 11, …`), and
// --testdox's sections (`Money (Acme\Money\Money)`, ` ✘ Format with data set "zero"`). A file that does not load is a
// load error with its file and line: PHP's `Parse error`/`Fatal error` (the run ends there), a `ParseError` a test
// met while autoloading a class, and "Error in bootstrap script" or a bootstrap PHPUnit "Cannot open".
import * as fs from 'fs';
import * as path from 'path';
import type { LoadErrorFile } from '../../ports/verifier';
import type { LineOptions, LineParser, OutputParser, ParseResult } from '../types';
import { keepLine, parseText } from '../common/lineParser';
import { Failures, ReportedTests } from '../common/reportedTests';
import { trimBlankLines } from '../common/textTools';
import { phpunitId } from './ids';

const BANNER = /^PHPUnit \d+\.\d+\S* (?:by Sebastian Bergmann|and contributors)/;
const SECTION = /^There (?:was|were) (?:\d+|one) (error|failure|warning|risky test|skipped test|incomplete test|deprecation|notice)s?:$/;
const DEFECT = /^(\d+)\) (.+)$/;
// `Class::method`, then PHPUnit's data set and, on the console, the data itself in parentheses.
const TEST_NAME = /^([^\s:]+)::(\w+)(?: with data set (#\d+|".*?") \(.*\))?$/s;
const LOCATION = /^(\S.*\.php):(\d+)$/;
const SUMMARY_OK = /^OK \((\d+) tests?, \d+ assertions?\)$/;
const SUMMARY = /^Tests: (\d+), Assertions: \d+(.*)\.$/;
const VERDICT = /^(?:FAILURES!|ERRORS!|WARNINGS!|OK, but (?:incomplete, skipped, or risky tests|there were issues)!|No tests executed!)$/;
// PHP itself: `PHP Parse error:  … in FILE on line N` (log_errors, on stderr), `Fatal error: Uncaught ParseError: … in FILE:N`.
// A fatal error mid-run follows the progress line's dots on the same line.
const PHP_ERROR = /^[.FEWRSID]*(?:PHP )?(Parse|Fatal) error:\s+(.*) in (\S+?)(?::(\d+)| on line (\d+))$/;
const BOOTSTRAP = /^Error in bootstrap script: (.*)$/;
const CANNOT_OPEN = /^Cannot open file "(.+)"\.$/;
const CLASS_NOT_FOUND = /^Class '?"?([^'"]+)'?"? could not be found in '?"?([^'"]+)'?"?\.?$/;
const INVALID_PROVIDER = /^The data provider specified for ([^\s:]+)::(\w+) is invalid\.$/;
// --testdox: a class's heading, then one line per test.
const TESTDOX_TEST = /^ ([✔✘↩∅☢⚠]) (.+)$/u;
const TESTDOX_DETAIL = /^ {3}│(?: (.*))?$/u;

type Kind = 'error' | 'failure' | 'other';

interface Defect {
  kind: Kind;
  header: string;
  lines: string[];
}

function phpunitLines(opts: LineOptions = {}): LineParser {
  const failing = new Failures();
  const reported = new ReportedTests();
  const loadErrors: LoadErrorFile[] = [];
  let loadError = false;
  let section: Kind | null = null;
  let defect: Defect | null = null;
  let lastNumber = 0;
  let blank = true;
  let total: number | null = null;
  let counts: Record<string, number> = {};
  let bootstrap: string[] | null = null;
  // --testdox
  let heading: string | null = null;
  let doxTest: { id: string; mark: string; lines: string[] } | null = null;
  let doxDone = false;
  let doxSeen = false;

  const fail = (id: string, file: string | undefined, message: string): void => {
    failing.add(file ? { id, file, message } : { id, message });
    reported.add(id, 'failed');
  };

  const closeDefect = (): void => {
    if (!defect) return;
    const d = defect;
    defect = null;
    const lines = trimBlankLines(d.lines);
    const message = lines.join('\n');
    const locations = lines.map((l) => LOCATION.exec(l)).filter((m): m is RegExpExecArray => m !== null);
    // A class the test autoloaded does not parse: the code does not load, whichever test met it first.
    if (/^ParseError: /.test(lines[0] ?? '') && locations.length) {
      loadError = true;
      loadErrors.push({ file: locations[0][1], line: Number(locations[0][2]), message: lines[0] });
    }
    let id: string | null = null;
    const named = TEST_NAME.exec(d.header);
    if (named) id = phpunitId(named[1], named[3] ? `${named[2]} with data set ${named[3]}` : named[2]);
    else {
      // PHPUnit's stand-in for a data provider that failed ("1) Error" or "1) Warning"): the method it provides for.
      const provider = lines.map((l) => INVALID_PROVIDER.exec(l)).find((m) => m);
      if (provider) id = `${provider[1]} > ${provider[2]}`;
    }
    if (id === null) return;
    if (d.kind === 'other') {
      return;
    }
    fail(id, locations.length ? locations[locations.length - 1][1] : undefined, message);
  };

  const closeDox = (): void => {
    if (!doxTest) return;
    const t = doxTest;
    doxTest = null;
    const lines = trimBlankLines(t.lines);
    if (t.mark === '✘') {
      const locations = lines.map((l) => LOCATION.exec(l)).filter((m): m is RegExpExecArray => m !== null);
      if (/^ParseError: /.test(lines[0] ?? '') && locations.length) {
        loadError = true;
        loadErrors.push({ file: locations[0][1], line: Number(locations[0][2]), message: lines[0] });
      }
      fail(t.id, locations.length ? locations[locations.length - 1][1] : undefined, lines.join('\n'));
    } else reported.add(t.id, t.mark === '✔' || t.mark === '☢' || t.mark === '⚠' ? 'passed' : 'skipped');
  };

  const push = (line: string): void => {
    if (bootstrap) {
      if (/^#\d+ /.test(line) || line === '') {
        bootstrap = null;
      } else {
        keepLine(bootstrap, line);
        const last = loadErrors[loadErrors.length - 1];
        last.message = bootstrap.join('\n');
        return;
      }
    }
    const php = PHP_ERROR.exec(line);
    if (php) {
      closeDefect();
      closeDox();
      loadError = true;
      loadErrors.push({ file: php[3], line: Number(php[4] ?? php[5]), message: `PHP ${php[1]} error: ${php[2]}` });
      return;
    }
    const boot = BOOTSTRAP.exec(line);
    if (boot) {
      loadError = true;
      loadErrors.push({ file: bootstrapFile(opts), message: line });
      bootstrap = [line];
      return;
    }
    const open = CANNOT_OPEN.exec(line);
    if (open) {
      loadError = true;
      loadErrors.push({ file: open[1], message: line });
      return;
    }
    const missing = CLASS_NOT_FOUND.exec(line);
    if (missing) {
      loadError = true;
      loadErrors.push({ file: missing[2], message: line });
      return;
    }
    const sec = SECTION.exec(line);
    if (sec) {
      closeDefect();
      closeDox();
      doxDone = doxSeen;
      section = sec[1] === 'error' ? 'error' : sec[1] === 'failure' ? 'failure' : 'other';
      lastNumber = 0;
      blank = true;
      return;
    }
    if (line === '--' && section) {
      closeDefect();
      section = null;
      blank = false;
      return;
    }
    const ok = SUMMARY_OK.exec(line);
    const sum = SUMMARY.exec(line);
    if (ok || sum || VERDICT.test(line)) {
      closeDefect();
      closeDox();
      section = null;
      if (ok) total = Number(ok[1]);
      if (sum) {
        total = Number(sum[1]);
        counts = {};
        for (const m of sum[2].matchAll(/, (\w+): (\d+)/g)) counts[m[1].toLowerCase()] = Number(m[2]);
      }
      return;
    }
    if (/^Summary of non-successful tests:$/.test(line)) {
      // --testdox repeats its failures: they were read above.
      closeDox();
      doxDone = true;
      return;
    }
    if (section) {
      const d = DEFECT.exec(line);
      // Numbered from 1 after the section's heading, each after a blank line: a message's own "2) …" is no defect.
      if (d && Number(d[1]) === lastNumber + 1 && (lastNumber === 0 || blank)) {
        closeDefect();
        lastNumber++;
        defect = { kind: section, header: d[2], lines: [] };
      } else if (defect) keepLine(defect.lines, line);
      blank = line === '';
      return;
    }
    if (doxDone) return;
    const t = TESTDOX_TEST.exec(line);
    if (t && heading !== null) {
      closeDox();
      doxSeen = true;
      doxTest = { id: `${heading} > ${t[2]}`, mark: t[1], lines: [] };
      blank = false;
      return;
    }
    const detail = TESTDOX_DETAIL.exec(line);
    if (detail && doxTest) {
      keepLine(doxTest.lines, detail[1] ?? '');
      blank = false;
      return;
    }
    if (blank && /^\S/.test(line) && !BANNER.test(line) && !/^(?:Time|Runtime|Configuration): /.test(line)) {
      // A testdox heading, after a blank line (a test's own output follows its line directly): `Money
      // (Acme\Money\Money)` names the class (without its Test suffix); a @testdox title stands alone.
      closeDox();
      const h = /^(.*) \(([^\s()]+)\)$/.exec(line);
      heading = h ? h[2] : line;
    } else if (line === '') closeDox();
    blank = line === '';
  };

  return {
    push,
    finish(): ParseResult {
      closeDefect();
      closeDox();
      const failed = failing.size;
      const skipped = total === null ? null : (counts.skipped ?? 0) + (counts.incomplete ?? 0);
      return {
        runner: 'phpunit',
        failing: failing.list(),
        // Without --testdox PHPUnit names only the tests that did not pass.
        tests: doxSeen ? reported.list() : null,
        passedCount: total === null ? null : Math.max(0, total - failed - (skipped ?? 0)),
        failedCount: total === null && failed === 0 ? null : failed,
        skippedCount: skipped,
        loadError,
        loadErrors,
        diagnostics: [],
      };
    },
  };
}

/** The bootstrap script a run loaded: `--bootstrap FILE` in the command, else its configuration's `bootstrap`. */
function bootstrapFile(opts: LineOptions): string {
  const words = (opts.command ?? '').split(/\s+/);
  const given = words.findIndex((w) => w === '--bootstrap');
  if (given >= 0 && words[given + 1]) return words[given + 1];
  const eq = words.find((w) => w.startsWith('--bootstrap='));
  if (eq) return eq.slice('--bootstrap='.length);
  if (!opts.cwd) return 'the bootstrap script';
  const c = words.findIndex((w) => w === '-c' || w === '--configuration');
  const configs = c >= 0 && words[c + 1] ? [words[c + 1]] : ['phpunit.xml', 'phpunit.xml.dist'];
  for (const config of configs) {
    try {
      const text = fs.readFileSync(path.resolve(opts.cwd, config), 'utf8');
      const m = /<phpunit\b[^>]*\sbootstrap="([^"]+)"/.exec(text);
      if (m) return m[1];
    } catch {
      // not this one
    }
  }
  return 'the bootstrap script';
}

export const phpunitParser: OutputParser = {
  format: 'phpunit',
  detect(text: string): number {
    const head = text.slice(0, 65536);
    if (/^PHPUnit \d+\.\d+\S* by Sebastian Bergmann/m.test(head)) return 0.98;
    // A test file that does not parse ends PHPUnit before its banner: PHP's error, PHPUnit's loader in the trace.
    if (/^(?:PHP )?(?:Parse|Fatal) error: /m.test(head) && /^#\d+ \S*PHPUnit[\\/]/m.test(head)) return 0.9;
    if (/^There (?:was|were) \d+ (?:failure|error)s?:$/m.test(head) && /^\d+\) [^\s:]+::\w+/m.test(head)) return 0.8;
    return 0;
  },
  // What PHP prints when a file PHPUnit loads does not parse, when the command runs phpunit.
  detectHinted: (text: string): number => (/^[.FEWRSID]*(?:PHP )?(?:Parse|Fatal) error: /m.test(text.slice(0, 65536)) ? 0.9 : 0),
  parse: (text: string, opts?: LineOptions): ParseResult => parseText(phpunitLines(opts), text),
  lines: (opts?: LineOptions) => phpunitLines(opts),
};
