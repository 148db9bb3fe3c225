// Maven (`mvn`, `./mvnw`) with Surefire and Failsafe: its console, and the XML reports Surefire and Failsafe write in
// each module's target/ (read beside the console: Maven names no passing test); IDs by the Java rule
// (common/javaIds.ts); javac's errors are load errors; narrowed with -Dtest (and -Dit.test); the Surefire and Failsafe
// configuration of pom.xml protected by content.
import type { Runner } from '../runner';
import { pluginSections } from './pom';
import { suggestMaven } from './suggest';

export const maven: Runner = {
  name: 'maven',
  formats: ['maven'],
  startsAt: (w, i) => (/(^|\/)(mvn|mvnw|mvn\.cmd|mvnw\.cmd)$/.test(w[i]) ? i + 1 : null),
  files: {
    tests: ['**/src/test/**', '**/src/it/**', '**/*Test.java', '**/*Tests.java', '**/*IT.java', '**/*TestCase.java'],
    config: ['**/.mvn/maven.config', '**/.mvn/jvm.config'],
  },
  parts: [
    {
      file: 'pom.xml',
      what: "the Surefire and Failsafe configuration of pom.xml (their <plugin> sections and the test properties)",
      extract: pluginSections,
    },
  ],
  regenerated: ['**/target/**'],
  // Surefire's "No tests were executed!" (a -Dtest that matched nothing, failIfNoTests) and "No tests to run." with
  // nothing else run; "No tests matching pattern" (failIfNoSpecifiedTests).
  noTests: [/\bNo tests (?:were executed!|matching pattern "[^"\n]*" were executed!)/],
  junitReports: /maven-(?:surefire|failsafe)-plugin\/xsd\/(?:surefire|failsafe)-test-report/,
  ownReports: { globs: ['**/target/surefire-reports/TEST-*.xml', '**/target/failsafe-reports/TEST-*.xml'], format: 'junit' },
  suggestCommand: suggestMaven,
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  code: () => (require('./code') as typeof import('./code')).mavenCode,
};
