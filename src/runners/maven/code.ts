// Maven's code: its console parser, its JUnit dialect (Surefire's XML names tests by the Java rule), -Dtest narrowing.
import type { RunnerCode } from '../runner';
import { mavenParser } from './parser';
import { narrowMaven } from './narrow';
import { javaJunitDialect } from '../common/javaIds';

export const mavenCode: RunnerCode = {
  parsers: [mavenParser],
  narrow: (args, targets) => narrowMaven(args, targets),
  coverage: () => ({ why: 'Greenloop takes no coverage of a Maven run (JaCoCo is not wired in)' }),
  junit: javaJunitDialect,
};
