// `cargo test` output: one libtest report per test binary (unit, integration, doc tests), summed.
// IDs are module paths split on "::"; doc tests ("src/lib.rs - add (line 5)") keep their name whole.
import type { FailingTest, LoadErrorFile, ReportedTest } from '../../ports/verifier';
import type { LineParser, OutputParser, ParseResult } from '../types';
import { keepLine, parseText } from '../common/lineParser';

const TEST_LINE = /^test (.+?) \.\.\. (ok|FAILED|ignored(?:, .*)?|bench:.*)$/;
const STDOUT_HEADER = /^---- (.+?) std(?:out|err) ----$/;
const RESULT = /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored;/;
const DOC_TEST = /^\S+ - .+ \(line \d+\)$/;
// Rust >= 1.73: "thread 'x' panicked at src/lib.rs:3:5:"; older: "thread 'x' panicked at 'msg', src/lib.rs:3:5".
const PANIC_NEW = /^thread '.*?'(?: \(\d+\))? panicked at (.+?):\d+:\d+:$/;
const PANIC_OLD = /^thread '.*?'(?: \(\d+\))? panicked at '(.*)', (.+?):\d+:\d+$/;
const NOT_LOAD_ERRORS = /^error: (test failed|doctest failed|\d+ targets? failed)/;
// Plain `cargo test` stops at the first failing binary and says how to rerun it; --no-fail-fast says "N targets failed".
const FAIL_FAST = /^error: (?:test|doctest) failed, to rerun pass /;
// The crate and target whose tests did not build: "error: could not compile `calc` (lib test) due to 1 previous error".
const NOT_COMPILED = /^error: could not compile `([^`]+)`(?: \(([^)]+)\))?/;

interface Block {
  lines: string[];
  file?: string;
}

function idOf(name: string): string {
  return DOC_TEST.test(name) ? name : name.split('::').join(' > ');
}

/** The panic payload: the runner's own notes, thread ids and backtrace frames are noise here. */
function messageOf(block: Block): string {
  const kept: string[] = [];
  for (const line of block.lines) {
    if (/^note: (run with `RUST_BACKTRACE|Some details are omitted)/.test(line)) continue;
    if (line === 'stack backtrace:' || /^\s+\d+: /.test(line) || /^\s+at \S/.test(line)) continue;
    if (PANIC_NEW.test(line)) continue;
    const old = PANIC_OLD.exec(line);
    kept.push(old ? old[1] : line);
  }
  return kept.join('\n').trim();
}

export const cargoParser: OutputParser = {
  format: 'cargo',

  detect(text: string): number {
    let score = 0;
    for (const line of text.split(/\r?\n/)) {
      if (/^running \d+ tests?$/.test(line)) score += 2;
      else if (RESULT.test(line)) score += 3;
      else if (TEST_LINE.test(line)) score += 1;
      else if (/^\s+(Running|Doc-tests|Compiling|Finished) /.test(line)) score += 1;
      else if (/^error: could not compile /.test(line)) score += 3;
      if (score >= 6) break;
    }
    return Math.min(1, score / 6) * 0.95;
  },

  parse: (text: string): ParseResult => parseText(cargoLines(), text),
  lines: () => cargoLines(),
};

function cargoLines(): LineParser {
  const failedNames: string[] = [];
  const reported = new Map<string, ReportedTest>();
  const seenNames = new Set<string>();
  const blocks = new Map<string, Block>();
  let block: Block | null = null;
  let inList = false;
  let sawResult = false;
  let passed = 0;
  let failed = 0;
  let ignored = 0;
  let loadError = false;
  let stoppedEarly: string | undefined;
  let noFailFast = false;
  const loadErrors: LoadErrorFile[] = [];
  // The compiler's errors since the last crate that failed to build, for the next "could not compile".
  let compileErrors: string[] | null = null;

  const noteFailed = (name: string): void => {
    if (seenNames.has(name)) return;
    seenNames.add(name);
    failedNames.push(name);
  };

  return {
    push(line: string): void {
      const header = STDOUT_HEADER.exec(line);
      if (header) {
        inList = false;
        block = blocks.get(header[1]) ?? { lines: [] };
        blocks.set(header[1], block);
        return;
      }
      if (line === 'failures:') {
        // The second "failures:" of a report lists the failing names, one per indented line.
        block = null;
        inList = true;
        return;
      }
      const result = RESULT.exec(line);
      if (result) {
        sawResult = true;
        passed += Number(result[1]);
        failed += Number(result[2]);
        ignored += Number(result[3]);
        block = null;
        inList = false;
        return;
      }
      if (block) {
        if (/^\s+(Running|Doc-tests) /.test(line)) block = null;
        else {
          keepLine(block.lines, line);
          if (block.file === undefined) {
            const m = PANIC_NEW.exec(line);
            const o = m ? null : PANIC_OLD.exec(line);
            if (m) block.file = m[1];
            else if (o) block.file = o[2];
          }
          return;
        }
      }
      if (inList) {
        const item = /^ {4}(\S.*)$/.exec(line);
        if (item) {
          noteFailed(item[1]);
          return;
        }
        if (line.trim() !== '') inList = false;
      }
      const t = TEST_LINE.exec(line);
      if (t) {
        if (t[2] === 'FAILED') noteFailed(t[1]);
        const status = t[2] === 'FAILED' ? 'failed' : t[2] === 'ok' ? 'passed' : t[2].startsWith('ignored') ? 'skipped' : null;
        if (status) reported.set(idOf(t[1]), { id: idOf(t[1]), status });
        return;
      }
      if (FAIL_FAST.test(line)) stoppedEarly = 'cargo test stopped at the first test binary with a failure, so the test binaries after it did not run; `cargo test --no-fail-fast` shows every failure at once.';
      // --no-fail-fast ends with the list of every failed target: nothing was left out.
      if (/^error: \d+ targets? failed/.test(line)) noFailFast = true;
      const notCompiled = NOT_COMPILED.exec(line);
      if (notCompiled) {
        loadError = true;
        const file = notCompiled[2] ? `${notCompiled[1]} (${notCompiled[2]})` : notCompiled[1];
        loadErrors.push({ file, message: (compileErrors ?? []).join('\n').trim() });
        compileErrors = null;
        return;
      }
      if (/^error(\[E\d+\])?: /.test(line) && !NOT_LOAD_ERRORS.test(line)) {
        loadError = true;
        compileErrors ??= [];
      }
      if (compileErrors && !/^\s+(Compiling|Running|Doc-tests|Finished) /.test(line)) keepLine(compileErrors, line);
    },
    finish(): ParseResult {
      const failing: FailingTest[] = [];
      const ids = new Set<string>();
      for (const name of failedNames) {
        const id = idOf(name);
        if (ids.has(id)) continue;
        ids.add(id);
        const b = blocks.get(name);
        const message = b ? messageOf(b) : '';
        failing.push(b?.file === undefined ? { id, message } : { id, file: b.file, message });
      }

      // A test named only in the "failures:" list (its own line was lost) still ran.
      for (const f of failing) if (!reported.has(f.id)) reported.set(f.id, { id: f.id, status: 'failed' });
      return {
        runner: 'cargo',
        failing,
        tests: sawResult || reported.size > 0 ? [...reported.values()] : null,
        passedCount: sawResult ? passed : null,
        failedCount: sawResult ? failed : null,
        skippedCount: sawResult ? ignored : null,
        loadError,
        loadErrors,
        diagnostics: [],
        ...(stoppedEarly && !noFailFast ? { stoppedEarly } : {}),
      };
    },
  };
}
