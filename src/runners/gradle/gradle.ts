// Gradle (`gradle`, `./gradlew`) running JVM tests (JUnit 5, JUnit 4, TestNG through the Test task): its console,
// and the JUnit XML each Test task writes in build/test-results/<task>/ (read beside the console: Gradle's console names
// no passing test); IDs by the Java rule (common/javaIds.ts) whichever it is read from; javac's and kotlinc's errors and
// a build script that does not evaluate are load errors; narrowed with one `--tests Class.method` per target; the test
// configuration of build.gradle(.kts) protected by content. Tested on recorded outputs written from real ones (no
// Gradle here): see docs/runners.md.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Runner, SuggestedCommand } from '../runner';
import { testSections } from './buildScript';

export const gradle: Runner = {
  name: 'gradle',
  formats: ['gradle'],
  startsAt: (w, i) => (/(^|\/)(gradle|gradlew|gradle\.bat|gradlew\.bat)$/.test(w[i]) ? i + 1 : null),
  files: {
    // src/test/** is Maven's already; the other source sets Gradle projects keep tests in, and Kotlin test classes.
    tests: ['**/src/test/**', '**/src/integrationTest/**', '**/src/testFixtures/**', '**/src/androidTest/**', '**/*Test.kt', '**/*Tests.kt'],
    config: [],
  },
  parts: [
    { file: 'build.gradle', what: 'the test configuration of build.gradle (its test, tasks.test, withType(Test) and testing blocks)', extract: testSections },
    { file: 'build.gradle.kts', what: 'the test configuration of build.gradle.kts (its test, tasks.test, withType<Test> and testing blocks)', extract: testSections },
  ],
  // What a test run writes under build/ (the rest of build/ may be anyone's) and Gradle's own cache.
  regenerated: ['**/.gradle/**', '**/build/classes/**', '**/build/resources/**', '**/build/tmp/**', '**/build/test-results/**', '**/build/reports/tests/**', '**/build/kotlin/**', '**/build/generated/**'],
  // A --tests filter (or a test task's own filter) that matches nothing fails the task with this.
  noTests: [/^> No tests found for given includes: /m, /^No tests found for given includes: /m],
  // Gradle's JUnitXmlResultWriter: testsuite's attributes in its order (Surefire's carry its schema, ctest's a status).
  junitReports: /<testsuite name="[^"]*" tests="\d+" (?:skipped="\d+" )?failures="\d+" errors="\d+" timestamp="[^"]*" hostname="[^"]*" time="[^"]*">\s*<properties\/>/,
  ownReports: { globs: ['**/build/test-results/*/TEST-*.xml'], format: 'junit' },
  narrowNeedsFiles: true,
  suggestCommand: suggestGradle,
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  code: () => (require('./code') as typeof import('./code')).gradleCode,
};

/** The wrapper when the project has one (as its README says to run it), else `gradle test` where a build script is. */
function suggestGradle(cwd: string): SuggestedCommand | null {
  if (process.platform !== 'win32' && existsSync(join(cwd, 'gradlew'))) return { command: './gradlew test', because: 'gradlew' };
  const script = ['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts'].find((f) => existsSync(join(cwd, f)));
  return script ? { command: 'gradle test', because: script } : null;
}
