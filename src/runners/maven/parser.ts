// Maven's console (`mvn test`, `mvn verify`): Surefire's and Failsafe's reports, per test class and in the reactor's
// summary, `-B` or with the colours Maven prints into a pipe (stripped before). Every failing test is named by its
// "<<< FAILURE!" line, its nested class found in its stack (Surefire 2.22 names only the outer class above it); javac's
// errors (`COMPILATION ERROR`, `File.java:[67,48]`) and any other failed goal are load errors. Maven names no passing
// test: the counts say what ran, and the XML reports the room reads beside the console name them (see maven.ts).
import type { FailingTest, LoadErrorFile } from '../../ports/verifier';
import type { LineOptions, LineParser, OutputParser, ParseResult } from '../types';
import { capMessage, keepLine, parseText } from '../common/lineParser';
import { Failures } from '../common/reportedTests';
import { javaClassTitles, javaTestFile, javaTestName } from '../common/javaIds';

const LEVEL = /^\[(INFO|ERROR|WARNING|WARN|DEBUG)\] ?/;
// "Tests run: 15, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 1.2 s <<< FAILURE! - in org.example.VersionTest"
// (Surefire 3: "Tests run: …, Time elapsed: 1.2 s <<< FAILURE! -- in org.example.VersionTest").
const CLASS_RESULT = /^Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(?:, Flakes: \d+)?, Time elapsed: [^-]*?-{1,2} in (\S+)$/;
// A module's summary: "Tests run: 24, Failures: 1, Errors: 0, Skipped: 0" (with Flakes when tests were re-run).
const MODULE_RESULT = /^Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(?:, Flakes: \d+)?$/;
// "comparesByPrecedence{String, String}[4]  Time elapsed: 0.029 s  <<< FAILURE!" (2.22: the method alone);
// "org.example.VersionTest$Ordering.comparesByPrecedence(String, String)[4] -- Time elapsed: 0.03 s <<< FAILURE!" (3.x).
const TEST_RESULT = /^(.+?)\s+(?:-- )?Time elapsed: [\d.,]+ s\s+<<< (FAILURE|ERROR)!$/;
const RUNNING = /^Running (\S+)$/;
// "at org.example.VersionTest$Ordering.comparesByPrecedence(VersionTest.java:46)"
const FRAME = /^\s*at ([\w$.]+)\.([\w$<>]+)\(([\w$]+\.java):(\d+)\)$/;
// javac's error, through the compiler plugin: "/abs/src/main/java/org/example/Range.java:[30,29] bad operand types …"
const JAVAC = /^(\S.*?\.java):\[(\d+),(\d+)\] (.*)$/;
const COMPILING = /^Compiling \d+ source files? to (.+?)\/target\/(?:test-)?classes$/;
const FAILED_GOAL = /^Failed to execute goal (\S+) \(([^)]*)\) on project ([^:]+): (.*)$/;
// Surefire's and Failsafe's own verdict on the tests, which the counts and "<<< FAILURE!" lines already tell.
const TEST_GOAL = /:maven-(?:surefire|failsafe)-plugin:[^:]+:(?:test|integration-test|verify)$/;
const MAX_MESSAGE_LINES = 40;

export const mavenParser: OutputParser = {
  format: 'maven',
  detect(text: string): number {
    const head = text.slice(0, 262144);
    let score = 0;
    if (/^\[INFO\] Scanning for projects\.\.\.$/m.test(head)) score += 2;
    if (/^\[(?:INFO|ERROR)\] BUILD (?:SUCCESS|FAILURE)$/m.test(text.slice(-65536)) || /^\[(?:INFO|ERROR)\] BUILD (?:SUCCESS|FAILURE)$/m.test(head)) score += 2;
    if (/^\[INFO\] -{3,} maven-|^\[INFO\] --- maven-[\w-]+-plugin:/m.test(head)) score += 2;
    if (/^\[INFO\]  T E S T S$/m.test(text)) score += 2;
    return Math.min(1, score / 4) * 0.97;
  },
  detectHinted: (text) => (/^\[(?:INFO|ERROR|WARNING)\] /m.test(text.slice(0, 65536)) ? 0.9 : 0),
  parse: (text: string, opts?: LineOptions): ParseResult => parseText(mavenLines(opts), text),
  lines: (opts?: LineOptions) => mavenLines(opts),
};

interface Pending {
  name: string;
  kind: 'FAILURE' | 'ERROR';
  /** The outer class of the "Tests run: … - in" line above it. */
  className: string;
  module: string;
  lines: string[];
}

function mavenLines(_opts?: LineOptions): LineParser {
  const failures = new Failures();
  const loadErrors = new Map<string, LoadErrorFile>();
  let loadError = false;
  let counted = false;
  let run = 0;
  let failed = 0;
  let errors = 0;
  let skipped = 0;
  let className = '';
  let module = '';
  let pending: Pending | null = null;
  let javacError: LoadErrorFile | null = null;
  let inResults = false;
  let buildSuccess = false;

  const finishPending = (): void => {
    if (!pending) return;
    const p = pending;
    pending = null;
    failures.add(failureOf(p));
  };
  const finishJavac = (): void => {
    if (!javacError) return;
    const key = `${javacError.file}:${javacError.line}:${javacError.message.split('\n')[0]}`;
    if (!loadErrors.has(key)) loadErrors.set(key, { ...javacError, message: capMessage(javacError.message) });
    javacError = null;
  };

  return {
    push(raw: string): void {
      const level = LEVEL.exec(raw);
      const line = level ? raw.slice(level[0].length) : raw;
      const tagged = level !== null;
      // A failing test's message and stack come untagged after its "<<< FAILURE!" line, up to a blank or tagged line.
      if (pending) {
        if (!tagged && line.trim() !== '') {
          if (pending.lines.length < MAX_MESSAGE_LINES) keepLine(pending.lines, line);
          return;
        }
        finishPending();
      }
      // javac's multi-line errors continue on tagged lines in the goal's summary, untagged in the COMPILATION ERROR block.
      if (javacError) {
        if (line.trim() !== '' && /^\s/.test(line) && !JAVAC.test(line.trim())) {
          javacError.message += `\n${line.trim()}`;
          return;
        }
        finishJavac();
      }
      const javac = JAVAC.exec(line);
      if (javac && level?.[1] === 'ERROR') {
        loadError = true;
        javacError = { file: javac[1], line: Number(javac[2]), message: javac[4] };
        return;
      }
      const compiling = COMPILING.exec(line);
      if (compiling) {
        module = compiling[1];
        return;
      }
      const running = RUNNING.exec(line);
      if (running) {
        className = running[1];
        return;
      }
      const cls = CLASS_RESULT.exec(line);
      if (cls) {
        className = cls[5];
        return;
      }
      if (line === 'BUILD SUCCESS') buildSuccess = true;
      if (line === 'Results:') {
        inResults = true;
        return;
      }
      const mod = MODULE_RESULT.exec(line);
      if (mod && inResults) {
        counted = true;
        run += Number(mod[1]);
        failed += Number(mod[2]);
        errors += Number(mod[3]);
        skipped += Number(mod[4]);
        inResults = false;
        return;
      }
      const test = TEST_RESULT.exec(line);
      if (test && !inResults) {
        pending = { name: test[1], kind: test[2] as Pending['kind'], className, module, lines: [] };
        return;
      }
      const goal = FAILED_GOAL.exec(line);
      if (goal && !TEST_GOAL.test(goal[1])) {
        // A goal that failed before or instead of the tests (compilation, a dependency that cannot be resolved, a
        // forked JVM that crashed): the tests did not run as written.
        loadError = true;
        if (!/Compilation failure/.test(goal[4])) {
          const key = `goal:${goal[1]}:${goal[3]}`;
          if (!loadErrors.has(key)) loadErrors.set(key, { file: 'pom.xml', message: capMessage(line) });
        }
        return;
      }
      if (goal && /The forked VM terminated|ExecutionException|There was an error in the forked process/.test(goal[4])) loadError = true;
      if (/^The build could not read \d+ projects?|^Non-resolvable (?:parent|import) POM|^Could not resolve dependencies/.test(line)) loadError = true;
    },
    finish(): ParseResult {
      finishPending();
      finishJavac();
      const failing = failures.list();
      // A build that succeeded without one test class reporting ran no test (a -Dtest that matched nothing with
      // failIfNoSpecifiedTests=false, -DskipTests, a goal that runs no test): zero, never "not said".
      if (!counted && buildSuccess && failing.length === 0) counted = true;
      return {
        runner: 'maven',
        failing,
        // Maven names no passing test; the reports read beside the console do.
        tests: null,
        passedCount: counted ? Math.max(0, run - failed - errors - skipped) : null,
        failedCount: counted ? failed + errors : failing.length,
        skippedCount: counted ? skipped : null,
        loadError: loadError || loadErrors.size > 0,
        loadErrors: [...loadErrors.values()],
        diagnostics: [],
      };
    },
  };
}

/** A failing test's ID: its class from the stack frame of its method (the nested class), else the class it ran in. */
function failureOf(p: Pending): FailingTest {
  let className = p.className;
  let name = p.name;
  // Surefire 3 names the class itself: "org.example.VersionTest$Ordering.comparesByPrecedence(String)[4]".
  const qualified = /^([\w$]+(?:\.[\w$]+)*)\.([\p{L}_$][\p{L}\p{N}_$]*(?:[({].*)?)$/u.exec(name);
  if (qualified && /[A-Z$]/.test(qualified[1])) {
    className = qualified[1];
    name = qualified[2];
  } else {
    const method = name.replace(/[({[].*$/, '');
    const outer = className.split('$')[0];
    for (const l of p.lines) {
      const f = FRAME.exec(l);
      if (f && f[2] === method && (f[1] === outer || f[1].startsWith(`${outer}$`))) {
        className = f[1];
        break;
      }
    }
  }
  const message = capMessage(p.lines.join('\n'));
  const id = [...javaClassTitles(className), javaTestName(name)].join(' > ');
  const failing: FailingTest = { id, message };
  if (className) failing.file = javaTestFile(className, p.module);
  return failing;
}
