// mocha's code: its output parser, its narrowing (a test's file read from its stack), V8's coverage.
import type { RunnerCode } from '../runner';
import { v8Plan } from '../common/coveragePlans';
import { mochaParser } from './parser';
import { fileFromMochaStack, narrowMocha } from './narrow';

export const mochaCode: RunnerCode = {
  parsers: [mochaParser],
  narrow: (args, targets, { files }) => narrowMocha(args, targets.map((t) => (t.file ? t : { ...t, file: fileFromMochaStack(t.message, files) }))),
  coverage: (_prefix, ctx) => v8Plan(ctx),
};
