// pytest's code: its output parser, its narrowing by node id, coverage.py around it.
import type { RunnerCode } from '../runner';
import { pytestParser } from './parser';
import { narrowPytest } from './narrow';
import { pytestPlan } from './coverage';

export const pytestCode: RunnerCode = {
  parsers: [pytestParser],
  narrow: (args, targets) => narrowPytest(args, targets),
  coverage: pytestPlan,
};
