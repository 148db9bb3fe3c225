// ctest's code: its console parser, its JUnit dialect (a test is its ctest name), its narrowing; no coverage.
import type { RunnerCode } from '../runner';
import { ctestParser } from './parser';
import { narrowCtest } from './narrow';

export const ctestCode: RunnerCode = {
  parsers: [ctestParser],
  narrow: (args, targets) => narrowCtest(args, targets),
  coverage: () => ({ why: 'ctest has no coverage of its own (it needs a build with --coverage and gcov)' }),
  junit: { id: (t) => t.name },
};
