// GoogleTest's code: its console parser, its JUnit dialect, its narrowing; no coverage (it needs a gcov build).
import type { RunnerCode } from '../runner';
import { gtestParser } from './parser';
import { narrowGtest } from './narrow';
import { gtestId } from './names';

export const gtestCode: RunnerCode = {
  parsers: [gtestParser],
  narrow: (args, targets) => narrowGtest(args, targets),
  coverage: () => ({ why: 'a gtest binary has no coverage of its own (it needs a build with --coverage and gcov)' }),
  junit: {
    // <testcase classname="Semver/Ordering" name="ComparesByPrecedence/2">: the console's `Semver/Ordering.ComparesByPrecedence/2`.
    id: (t) => (t.classname ? `${t.classname} > ${t.name}` : gtestId(t.name)),
  },
};
