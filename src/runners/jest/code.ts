// jest's code: its output parser and its narrowing; no coverage (see coverage()).
import type { RunnerCode } from '../runner';
import { jestParser } from './parser';
import { narrowJest } from './narrow';

export const jestCode: RunnerCode = {
  parsers: [jestParser],
  narrow: (args, targets) => narrowJest(args, targets),
  // It runs a transformed copy of each file; V8's offsets would need its source maps to land on the file on disk.
  coverage: () => ({ why: 'jest runs transformed copies of the files, whose V8 coverage does not map to the lines on disk' }),
};
