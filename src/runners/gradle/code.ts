// Gradle's code: its console parser, its JUnit dialect (Gradle's XML names tests by the Java rule), --tests narrowing.
import type { RunnerCode } from '../runner';
import { gradleParser } from './parser';
import { narrowGradle } from './narrow';
import { javaJunitDialect } from '../common/javaIds';

export const gradleCode: RunnerCode = {
  parsers: [gradleParser],
  narrow: (args, targets, run) => narrowGradle(args, targets, run.files),
  coverage: () => ({ why: 'Greenloop takes no coverage of a Gradle run (JaCoCo is not wired in)' }),
  junit: javaJunitDialect,
};
