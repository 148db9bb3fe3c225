// Gradle's console and XML, read back from RECORDINGS (no Gradle >= 4.6 here): java-semver in four states written in
// Gradle's formats from the real Maven runs of the same states (test/fixtures/regenerate/gradle-recordings.py says how
// and from which Gradle sources and outputs). Expected IDs are the Maven captures' truth.json (Surefire's own XML read
// by maven-truth.py): the Java rule gives a test one ID whether Maven or Gradle ran it, console or XML.
import { strict as assert } from 'assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { detectFormat, parseOutput, parseReports, withOwnReports } from '../../../src/runners/parseOutput';
import { narrowToTargets } from '../../../src/runners/narrow';
import { junitDialectOf, runnerProtectedGlobs, runnerProtectedParts, suggestedTestCommand } from '../../../src/runners/registry';
import { testSections } from '../../../src/runners/gradle/buildScript';
import { cannotRunSentence } from '../../../src/verify/cannotRun';

const recorded = join(__dirname, '..', '..', 'fixtures', 'captured', 'gradle');

function walk(dir: string): string[] {
  let out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    out = statSync(p).isDirectory() ? [...out, ...walk(p)] : [...out, p];
  }
  return out;
}

function recording(name: string): { console: string; exit: number; reports: string[]; truth: { tests: string[]; failing: string[] } } {
  const dir = join(recorded, name);
  let reports: string[] = [];
  try {
    reports = walk(join(dir, 'reports')).sort().map((f) => readFileSync(f, 'utf8'));
  } catch {
    reports = [];
  }
  return {
    console: readFileSync(join(dir, 'console.txt'), 'utf8'),
    exit: Number(readFileSync(join(dir, 'exit'), 'utf8').trim()),
    reports,
    truth: JSON.parse(readFileSync(join(dir, 'truth.json'), 'utf8')),
  };
}

const sorted = (xs: readonly string[]): string[] => [...xs].sort();

describe('gradle: console and XML give one ID per test, the same as Maven\'s (recorded outputs)', () => {
  for (const state of ['green', 'onebug', 'twobugs', 'compile']) {
    it(`semver-${state}: the console, the XML and both merged give the IDs of Surefire's own reports of that state`, () => {
      const r = recording(`semver-${state}`);
      const consoleRead = parseOutput(r.console);
      assert.equal(consoleRead.runner, 'gradle');
      assert.deepEqual(sorted(consoleRead.failing.map((f) => f.id)), r.truth.failing, 'console');
      if (r.reports.length) {
        for (const x of r.reports) assert.ok(junitDialectOf(x.slice(0, 65536)), 'Gradle\'s XML is marked as its own');
        const xml = parseReports('junit', r.reports);
        assert.deepEqual(sorted(xml.failing.map((f) => f.id)), r.truth.failing, 'XML');
        assert.deepEqual(sorted((xml.tests ?? []).map((t) => t.id)), r.truth.tests, 'XML tests');
      }
      const merged = withOwnReports(consoleRead, r.reports.length ? parseReports('junit', r.reports) : null);
      assert.deepEqual(sorted(merged.failing.map((f) => f.id)), r.truth.failing, 'merged');
      if (r.reports.length) assert.deepEqual(sorted((merged.tests ?? []).map((t) => t.id)), r.truth.tests, 'merged tests');
      assert.equal(merged.loadError, state === 'compile', 'load error');
      if (state === 'onebug' || state === 'twobugs') assert.equal((consoleRead.passedCount ?? 0) + (consoleRead.failedCount ?? 0), r.truth.tests.length, 'the summary\'s counts');
      assert.equal(detectFormat(r.console), 'gradle');
    });
  }

  it('a compile error is a load error with javac\'s file and line, its source line and caret in the message', () => {
    const r = parseOutput(recording('semver-compile').console);
    assert.equal(r.loadError, true);
    assert.deepEqual(r.failing, []);
    assert.equal(r.loadErrors?.length, 1);
    const e = r.loadErrors![0];
    assert.match(e.file, /\/src\/main\/java\/org\/example\/semver\/Range\.java$/);
    assert.equal(e.line, 28);
    assert.match(e.message, /^bad operand types for binary operator '>='\n.*>= "0"[\s\S]*first type: {2}int\n {2}second type: String$/);
  });

  it('the XML names a failing test\'s file by its class; its message is the exception', () => {
    const xml = parseReports('junit', recording('semver-onebug').reports);
    const f = xml.failing[0];
    assert.equal(f.id, 'VersionTest > Ordering > comparesByPrecedence(String, String)[4]');
    assert.match(f.file ?? '', /^src\/test\/java\/org\/example\/semver\/VersionTest\.java$/);
    assert.match(f.message, /1\.0\.0-alpha < 1\.0\.0 ==> expected: <true> but was: <false>/);
  });

  it('a green run\'s console names no test and no count (Gradle prints no summary then): the reports say what ran', () => {
    const r = recording('semver-green');
    const c = parseOutput(r.console);
    assert.equal(c.passedCount, null);
    assert.equal(c.tests, null);
    const merged = withOwnReports(c, parseReports('junit', r.reports));
    assert.equal(merged.passedCount, r.truth.tests.length);
  });
});

describe('gradle: other outputs, written from real ones', () => {
  it('reads the other console forms: JUnit 4\'s qualified class, the full exception format, PASSED lines, Gradle 8\'s invocation line', () => {
    // hamcrest/JavaHamcrest#119's output (exceptionFormat full), with PASSED events logged.
    const out = [
      '> Task :test',
      '',
      'org.hamcrest.core.AllOfTest > passingTest PASSED',
      '',
      'org.hamcrest.core.AllOfTest > failingTest FAILED',
      '    java.lang.AssertionError',
      '        at org.junit.Assert.fail(Assert.java:86)',
      '        at org.junit.Assert.fail(Assert.java:95)',
      '        at org.hamcrest.core.AllOfTest.failingTest(AllOfTest.java:72)',
      '',
      'VersionTest > Ordering > comparesByPrecedence(String, String) > [4] 1.0.0-alpha, 1.0.0 FAILED',
      '    org.opentest4j.AssertionFailedError at VersionTest.java:46',
      '',
      '3 tests completed, 2 failed',
      '',
      'BUILD FAILED in 3s',
    ].join('\n');
    const r = parseOutput(out, 'gradle');
    assert.deepEqual(sorted(r.failing.map((f) => f.id)), ['AllOfTest > failingTest', 'VersionTest > Ordering > comparesByPrecedence(String, String)[4]']);
    assert.equal(r.failing.find((f) => f.id === 'AllOfTest > failingTest')?.file, 'src/test/java/org/hamcrest/core/AllOfTest.java');
    assert.deepEqual(sorted((r.tests ?? []).map((t) => t.id)), ['AllOfTest > failingTest', 'AllOfTest > passingTest', 'VersionTest > Ordering > comparesByPrecedence(String, String)[4]']);
    assert.equal(r.passedCount, 1);
  });

  it('kotlinc\'s errors (2.x and 1.x forms), a build script that does not evaluate, a module\'s task: load errors with file and line', () => {
    const kotlin = parseOutput(['> Task :core:compileKotlin FAILED', "e: file:///w/core/src/main/kotlin/org/example/Version.kt:12:5 Unresolved reference 'nextMinor'.", 'e: /w/core/src/main/kotlin/org/example/Range.kt: (30, 9): Type mismatch: inferred type is String but Int was expected', '', 'FAILURE: Build failed with an exception.', '', '* What went wrong:', "Execution failed for task ':core:compileKotlin'.", '> Compilation error. See log for more details', '', 'BUILD FAILED in 7s'].join('\n'), 'gradle');
    assert.equal(kotlin.loadError, true);
    assert.deepEqual(kotlin.loadErrors?.map((e) => [e.file, e.line]), [['/w/core/src/main/kotlin/org/example/Version.kt', 12], ['/w/core/src/main/kotlin/org/example/Range.kt', 30]]);
    const script = parseOutput(['FAILURE: Build failed with an exception.', '', '* Where:', "Build file '/w/build.gradle' line: 14", '', '* What went wrong:', "A problem occurred evaluating root project 'semver'.", '> Could not find method testImplementaton() for arguments [org.junit.jupiter:junit-jupiter:5.9.2]', '', 'BUILD FAILED in 1s'].join('\n'), 'gradle');
    assert.equal(script.loadError, true);
    assert.deepEqual(script.loadErrors?.map((e) => [e.file, e.line]), [['/w/build.gradle', 14]]);
    const failing = parseOutput(recording('semver-onebug').console);
    assert.equal(failing.loadError, false, 'the tests\' own verdict ("There were failing tests") is no load error');
  });

  it('a --tests filter that matches nothing cannot run (never green)', () => {
    const out = ['> Task :test FAILED', '', 'FAILURE: Build failed with an exception.', '', '* What went wrong:', "Execution failed for task ':test'.", '> No tests found for given includes: [NoSuchTest](--tests filter)', '', 'BUILD FAILED in 2s'].join('\n');
    assert.match(cannotRunSentence({ exitCode: 1, output: out }, 'gradle test --tests NoSuchTest', '/w', 0) ?? '', /No tests found for given includes/);
    assert.equal(parseOutput(out, 'gradle').loadError, false);
  });
});

describe('gradle: narrowing with --tests, the suggested command, what is protected', () => {
  const narrow = (command: string, ids: string[], files?: string[]) => narrowToTargets({ testCommand: command, runner: 'gradle', targets: ids.map((id) => ({ id })), files });

  it('one --tests per target after the test task, nested classes with $, a parameterized method whole, a display name its class', () => {
    const r = narrow('./gradlew test --tests Old', ['VersionTest > Ordering > comparesByPrecedence(String, String)[4]', 'VersionTest > Ordering > comparesByPrecedence(String, String)[6]', 'RangeTest > Caret > zeroMajor', 'RangeTest > stops before the next major']);
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.command, "./gradlew test --tests 'VersionTest$Ordering.comparesByPrecedence' --tests 'RangeTest$Caret.zeroMajor' --tests RangeTest");
    const built = narrow('gradle clean test -x javadoc --console=plain', ['VersionTest > parsesThreeParts']);
    assert.ok(built.ok);
    assert.equal(built.command, 'gradle clean test --tests VersionTest.parsesThreeParts -x javadoc --console=plain');
  });

  it('not narrowed: a command with no test task, a task only excluded, a build of several projects', () => {
    assert.equal(narrow('gradle build', ['VersionTest > parsesThreeParts']).ok, false);
    assert.equal(narrow('gradle build -x test', ['VersionTest > parsesThreeParts']).ok, false);
    const multi = narrow('gradle test', ['VersionTest > parsesThreeParts'], ['build.gradle', 'core/build.gradle.kts', 'core/src/test/java/VersionTest.java']);
    assert.equal(multi.ok, false);
    assert.match(multi.ok ? '' : multi.why, /several Gradle projects/);
  });

  it('suggests ./gradlew test with the wrapper, gradle test with a build script, nothing otherwise', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gl-gradle-'));
    try {
      assert.equal(suggestedTestCommand(dir), null);
      writeFileSync(join(dir, 'build.gradle.kts'), 'plugins { java }\n');
      assert.deepEqual(suggestedTestCommand(dir), { command: 'gradle test', because: 'build.gradle.kts', runner: 'gradle' });
      writeFileSync(join(dir, 'gradlew'), '#!/bin/sh\n');
      assert.equal(suggestedTestCommand(dir)?.command, './gradlew test');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('protects Gradle\'s test source sets and the Test configuration of its build scripts, not the rest of them', () => {
    for (const g of ['**/src/test/**', '**/src/integrationTest/**', '**/*Test.kt']) assert.ok(runnerProtectedGlobs().includes(g), g);
    assert.ok(runnerProtectedParts().some((p) => p.file === 'build.gradle.kts'));
    const script = "plugins { id 'java' }\ndependencies {\n  testImplementation 'org.junit.jupiter:junit-jupiter:5.9.2'\n}\ntest {\n  useJUnitPlatform()\n  filter { excludeTestsMatching '*Slow*' } // slow ones\n}\n";
    const before = testSections(script);
    assert.match(before ?? '', /^test \{ useJUnitPlatform\(\) filter \{ excludeTestsMatching '\*Slow\*' \} \}$/);
    assert.equal(testSections(script.replace('5.9.2', '5.10.0')), before, 'a dependency is no test configuration');
    assert.notEqual(testSections(script.replace("excludeTestsMatching '*Slow*'", "excludeTestsMatching '*Version*'")), before);
    const kts = 'tasks.withType<Test> {\n    useJUnitPlatform()\n}\ntasks.named<Test>("test") { maxParallelForks = 2 }\n';
    assert.equal(testSections(kts), 'tasks.withType<Test> { useJUnitPlatform() }\ntasks.named<Test>("test") { maxParallelForks = 2 }');
  });
});
