// node --test's code: its spec parser and the TAP reader, its narrowing, V8's coverage.
import type { RunnerCode } from '../runner';
import { v8Plan } from '../common/coveragePlans';
import { tapParser } from '../readers/tap';
import { nodeParser } from './parser';
import { narrowNode } from './narrow';

export const nodeCode: RunnerCode = {
  parsers: [nodeParser, tapParser],
  narrow: (args, targets) => narrowNode(args, targets),
  coverage: (_prefix, ctx) => v8Plan(ctx),
};
