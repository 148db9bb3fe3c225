// Gradle's console (`gradle test`, `./gradlew build`; plain, as Gradle prints into a pipe, or with --console=plain):
// each Test task's "Class > Nested > method(String)[4] FAILED" lines (PASSED and SKIPPED too when the build logs
// them) with the exception under them, its "N tests completed, M failed, K skipped" summary, and the build's verdict.
// javac's (`File.java:12: error: …`) and kotlinc's (`e: file:///…/File.kt:12:5 …`, `e: /…/File.kt: (12, 5): …`) errors
// are load errors with their file and line, as is any failure of the build that is not the tests' own ("There were
// failing tests"): a build script that does not evaluate (`* Where: Build file '…' line: 12`), a dependency that
// cannot be resolved. Gradle names no passing test by default: the counts say what ran, and the XML reports the room
// reads beside the console name them (see gradle.ts).
import type { FailingTest, LoadErrorFile } from '../../ports/verifier';
import type { LineOptions, LineParser, OutputParser, ParseResult } from '../types';
import { capMessage, keepLine, parseText } from '../common/lineParser';
import { Failures, ReportedTests } from '../common/reportedTests';
import { javaClassTitles, javaTestFile, javaTestName } from '../common/javaIds';

// "> Task :core:test FAILED", "> Task :compileJava", "> Task :test UP-TO-DATE".
const TASK = /^> Task (:\S*?)(?: (FAILED|UP-TO-DATE|NO-SOURCE|FROM-CACHE|SKIPPED))?$/;
// "VersionTest > Ordering > comparesByPrecedence(String, String)[4] FAILED"; JUnit 4: "org.example.FooTest > testBar FAILED".
const EVENT = /^([^\s>].*? > .+) (PASSED|FAILED|SKIPPED)$/;
// "24 tests completed, 1 failed, 2 skipped" ("1 test completed, 1 failed").
const SUMMARY = /^(\d+) tests? completed(?:, (\d+) failed)?(?:, (\d+) skipped)?$/;
// javac through Gradle: "/home/u/p/src/main/java/org/example/Range.java:30: error: bad operand types …"
const JAVAC = /^(\S.*?\.java):(\d+): error: (.*)$/;
// kotlinc: "e: file:///home/u/p/src/main/kotlin/Version.kt:12:5 Unresolved reference 'x'." (1.9+, 2.x) and
// "e: /home/u/p/src/main/kotlin/Version.kt: (12, 5): Unresolved reference: x" (1.x); build.gradle.kts's errors too.
const KOTLINC = /^e: (?:file:\/\/)?(\S.*?\.kts?)(?::(\d+):(\d+)|: \((\d+), (\d+)\):) ?(.*)$/;
// "  at org.example.VersionTest$Ordering.comparesByPrecedence(VersionTest.java:46)" (JDK 9+: "at app//org…").
const FRAME = /^\s*at (?:[\w.-]+\/\/)?([\w$.]+)\.([\w$<>]+)\(([\w$]+\.(?:java|kt)):(\d+)\)$/;
// The short form Gradle prints by default: "    org.opentest4j.AssertionFailedError at VersionTest.java:46".
const SHORT = /^\s*\S+ at ([\w$]+\.(?:java|kt)):(\d+)$/;
const WHERE = /^(?:Build|Settings|Script|Initialization script) file '(.+?)' line: (\d+)$/;
const FAILED_TASK = /^Execution failed for task '(:\S*?)'\.$/;
const TESTS_FAILED = /^> There were failing tests\. See the report at: /;
const MAX_MESSAGE_LINES = 40;

export const gradleParser: OutputParser = {
  format: 'gradle',
  detect(text: string): number {
    const head = text.slice(0, 262144);
    const tail = text.slice(-65536);
    let score = 0;
    if (/^> Task :\S+/m.test(head)) score += 2;
    if (/^BUILD (?:SUCCESSFUL|FAILED) in \d/m.test(tail) || /^BUILD (?:SUCCESSFUL|FAILED) in \d/m.test(head)) score += 2;
    if (/^\d+ tests? completed(?:, \d+ failed)?/m.test(text)) score += 1;
    if (/^FAILURE: Build (?:failed with an exception|completed with \d+ failures)\.$/m.test(tail)) score += 1;
    if (/^\d+ actionable tasks?: /m.test(tail)) score += 1;
    return Math.min(1, score / 4) * 0.97;
  },
  detectHinted: (text) => (/^(?:> Task :|FAILURE: Build|BUILD (?:SUCCESSFUL|FAILED)|\* What went wrong:|Starting a Gradle Daemon)/m.test(text.slice(0, 65536)) ? 0.9 : 0),
  parse: (text: string, opts?: LineOptions): ParseResult => parseText(gradleLines(opts), text),
  lines: (opts?: LineOptions) => gradleLines(opts),
};

interface Pending {
  parts: string[];
  module: string;
  lines: string[];
}

/** `:core:test` → `core`, `:test` → `` (Gradle's project path, laid out as folders by default). */
function moduleOf(taskPath: string): string {
  const segs = taskPath.split(':').filter(Boolean);
  return segs.slice(0, -1).join('/');
}

function gradleLines(opts?: LineOptions): LineParser {
  const failures = new Failures();
  const tests = new ReportedTests(opts?.intern);
  const loadErrors = new Map<string, LoadErrorFile>();
  let named = false;
  let loadError = false;
  let counted = false;
  let run = 0;
  let failed = 0;
  let skipped = 0;
  let module = '';
  let pending: Pending | null = null;
  let compileError: LoadErrorFile | null = null;
  let where: { file: string; line: number } | null = null;
  let wentWrong = false;
  let wrongTask: string | null = null;
  let buildSuccess = false;

  const finishPending = (): void => {
    if (!pending) return;
    const p = pending;
    pending = null;
    const f = failureOf(p);
    failures.add(f);
    tests.fail(f.id);
  };
  const finishCompile = (): void => {
    if (!compileError) return;
    const key = `${compileError.file}:${compileError.line}:${compileError.message.split('\n')[0]}`;
    if (!loadErrors.has(key)) loadErrors.set(key, { ...compileError, message: capMessage(compileError.message) });
    compileError = null;
  };

  return {
    push(line: string): void {
      // A failing test's exception comes indented under its line, up to a blank or unindented line.
      if (pending) {
        if (/^\s/.test(line) && line.trim() !== '') {
          if (pending.lines.length < MAX_MESSAGE_LINES) keepLine(pending.lines, line.trim());
          return;
        }
        finishPending();
      }
      // javac's source line, caret and notes follow its error; kotlinc's error is one line.
      if (compileError) {
        if (line.trim() !== '' && !JAVAC.test(line) && !/^\d+ errors?$|^\d+ warnings?$|^> Task |^FAILURE: |^\* /.test(line) && !/^(?:e|w): /.test(line)) {
          if (compileError.message.split('\n').length < MAX_MESSAGE_LINES) compileError.message += `\n${line}`;
          return;
        }
        finishCompile();
      }
      const javac = JAVAC.exec(line);
      if (javac) {
        loadError = true;
        compileError = { file: javac[1], line: Number(javac[2]), message: javac[3] };
        return;
      }
      const kotlin = KOTLINC.exec(line);
      if (kotlin) {
        loadError = true;
        compileError = { file: kotlin[1], line: Number(kotlin[2] ?? kotlin[4]), message: kotlin[6] };
        finishCompile();
        return;
      }
      const task = TASK.exec(line);
      if (task) {
        module = moduleOf(task[1]);
        return;
      }
      const event = EVENT.exec(line);
      if (event && !line.startsWith('> ')) {
        const parts = event[1].split(' > ');
        if (event[2] === 'FAILED') {
          pending = { parts, module, lines: [] };
        } else {
          named = true;
          tests.add(idOf(parts), event[2] === 'PASSED' ? 'passed' : 'skipped');
        }
        return;
      }
      const summary = SUMMARY.exec(line);
      if (summary) {
        counted = true;
        run += Number(summary[1]);
        failed += Number(summary[2] ?? 0);
        skipped += Number(summary[3] ?? 0);
        return;
      }
      if (/^BUILD SUCCESSFUL in /.test(line)) buildSuccess = true;
      const w = WHERE.exec(line);
      if (w) {
        where = { file: w[1], line: Number(w[2]) };
        return;
      }
      if (line === '* What went wrong:') {
        wentWrong = true;
        wrongTask = null;
        return;
      }
      if (wentWrong) {
        wentWrong = false;
        const failedTask = FAILED_TASK.exec(line);
        if (failedTask) {
          // The next line says why: the tests' own verdict, or anything else (compilation, a crashed worker).
          wrongTask = failedTask[1];
          return;
        }
        // The build itself failed: its script, its settings, a dependency.
        loadError = true;
        const key = `build:${where?.file ?? ''}:${line}`;
        if (!loadErrors.has(key)) loadErrors.set(key, { file: where?.file ?? 'build.gradle', line: where?.line, message: capMessage(line) });
        where = null;
        return;
      }
      if (wrongTask !== null) {
        const t = wrongTask;
        wrongTask = null;
        if (TESTS_FAILED.test(line) || /^> No tests found for given includes: /.test(line)) return;
        // "> Compilation failed; see the compiler error output for details." (the errors were read above), a
        // compilation error of Kotlin, a test worker that crashed: the tests did not run as written.
        loadError = true;
        if (!/^> Compilation (?:failed|error)/.test(line)) {
          const key = `task:${t}`;
          if (!loadErrors.has(key)) loadErrors.set(key, { file: where?.file ?? 'build.gradle', message: capMessage(`Execution failed for task '${t}': ${line.replace(/^> /, '')}`) });
        }
        return;
      }
    },
    finish(): ParseResult {
      finishPending();
      finishCompile();
      const failing = failures.list();
      // Gradle prints no summary when every test passed: how many ran is not said (the reports say it).
      if (!counted && buildSuccess && failing.length === 0 && named) counted = true;
      const list = named ? tests.list() : null;
      return {
        runner: 'gradle',
        failing,
        tests: list,
        passedCount: counted && !named ? Math.max(0, run - failed - skipped) : named ? list!.filter((t) => t.status === 'passed').length : null,
        failedCount: counted ? Math.max(failed, failing.length) : failing.length,
        skippedCount: counted && !named ? skipped : named ? list!.filter((t) => t.status === 'skipped').length : null,
        loadError: loadError || loadErrors.size > 0,
        loadErrors: [...loadErrors.values()],
        diagnostics: [],
      };
    },
  };
}

/**
 * "VersionTest > Ordering > comparesByPrecedence(String, String)[4]" → the Java rule's ID; Gradle 8's
 * "… > comparesByPrecedence(String, String) > [4] 1.0.0-alpha, 1.0.0" is the same invocation.
 */
function idOf(parts: readonly string[]): string {
  const p = [...parts];
  const last = p[p.length - 1];
  const invocation = /^(\[\d+\])(?: .*)?$/.exec(last);
  if (invocation && p.length > 2 && /\(.*\)$/.test(p[p.length - 2])) {
    p.splice(p.length - 2, 2, `${p[p.length - 2]}${invocation[1]}`);
  }
  const [first, ...rest] = p.slice(0, -1);
  return [...javaClassTitles(first), ...rest, javaTestName(p[p.length - 1])].join(' > ');
}

/** A failing test: its ID from its line, its file from its stack (the class with its package) or its line's class. */
function failureOf(p: Pending): FailingTest {
  const id = idOf(p.parts);
  const message = capMessage(p.lines.join('\n'));
  const failing: FailingTest = { id, message };
  const outer = javaClassTitles(p.parts[0])[0];
  let className = p.parts[0].includes('.') ? p.parts[0] : '';
  let ext = 'java';
  for (const l of p.lines) {
    const f = FRAME.exec(l);
    if (f && javaClassTitles(f[1])[0] === outer) {
      className = f[1];
      ext = f[3].endsWith('.kt') ? 'kt' : 'java';
      break;
    }
    const s = SHORT.exec(l);
    if (s && s[1].replace(/\.(?:java|kt)$/, '') === outer) ext = s[1].endsWith('.kt') ? 'kt' : 'java';
  }
  if (className) {
    const file = javaTestFile(className, p.module, ext === 'kt' ? 'src/test/kotlin' : 'src/test/java');
    failing.file = ext === 'kt' ? file.replace(/\.java$/, '.kt') : file;
  }
  return failing;
}
