// minitest's code: its console parser, its narrowing by test name; no coverage tool here.
import type { RunnerCode } from '../runner';
import { minitestParser } from './parser';
import { narrowMinitest } from './narrow';

export const minitestCode: RunnerCode = {
  parsers: [minitestParser],
  narrow: (args, targets, { prefix }) => narrowMinitest(args, targets, /(^|\/)rake$/.test(prefix[prefix.length - 2] ?? '')),
  coverage: () => ({ why: 'Greenloop takes no coverage of Ruby (SimpleCov writes it only where a project configures it)' }),
};
