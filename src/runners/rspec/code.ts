// RSpec's code: its console and JSON parser, its narrowing by file and example; no coverage tool here.
import type { RunnerCode } from '../runner';
import { rspecParser } from './parser';
import { narrowRspec } from './narrow';
import { rspecJunit } from './junit';

export const rspecCode: RunnerCode = {
  parsers: [rspecParser],
  narrow: (args, targets) => narrowRspec(args, targets),
  junit: rspecJunit,
  coverage: () => ({ why: 'Greenloop takes no coverage of Ruby (SimpleCov writes it only where a project configures it)' }),
};
