// Catch2's code: its console and XML parser, its JUnit dialect, its narrowing; no coverage (it needs a gcov build).
import type { RunnerCode } from '../runner';
import { catch2Parser } from './parser';
import { narrowCatch2 } from './narrow';

export const catch2Code: RunnerCode = {
  parsers: [catch2Parser],
  narrow: (args, targets) => narrowCatch2(args, targets),
  coverage: () => ({ why: 'a Catch2 binary has no coverage of its own (it needs a build with --coverage and gcov)' }),
  junit: {
    // name="title case/lowers the rest of a word/even after a tab"; the classname (`textkit_tests.global`) is the binary's.
    id: (t) => t.name.split('/').join(' > '),
  },
};
