// vitest's code: its output parser and its narrowing; no coverage (see coverage()).
import type { RunnerCode } from '../runner';
import { vitestParser } from './parser';
import { narrowVitest } from './narrow';

export const vitestCode: RunnerCode = {
  parsers: [vitestParser],
  narrow: (args, targets) => narrowVitest(args, targets),
  // It runs a transformed copy of each file; V8's offsets would need its source maps to land on the file on disk.
  coverage: () => ({ why: 'vitest runs transformed copies of the files, whose V8 coverage does not map to the lines on disk' }),
};
