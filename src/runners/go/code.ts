// go test's code: its output parser, its narrowing, its -coverprofile.
import type { RunnerCode } from '../runner';
import { goParser } from './parser';
import { narrowGo } from './narrow';
import { goPlan } from './coverage';

export const goCode: RunnerCode = {
  parsers: [goParser],
  narrow: narrowGo,
  coverage: (_prefix, ctx) => goPlan(ctx),
};
