// go test's code: its output parser, its narrowing, its -coverprofile.
import type { RunnerCode } from '../runner';
import { goParser } from './parser';
import { narrowGo } from './narrow';
import { goPlan } from './coverage';

export const goCode: RunnerCode = {
  parsers: [goParser],
  narrow: (args, targets, { files }) => narrowGo(args, targets, files),
  coverage: (_prefix, ctx) => goPlan(ctx),
};
