// test-unit's code: its console and XML parser, its narrowing by test case and name; no coverage tool here.
import type { RunnerCode } from '../runner';
import { testunitParser } from './parser';
import { narrowTestunit } from './narrow';

export const testunitCode: RunnerCode = {
  parsers: [testunitParser],
  narrow: (args, targets, { prefix }) => narrowTestunit(args, targets, /(^|\/)rake$/.test(prefix[prefix.length - 2] ?? '')),
  coverage: () => ({ why: 'Greenloop takes no coverage of Ruby (SimpleCov writes it only where a project configures it)' }),
};
