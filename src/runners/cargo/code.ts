// cargo test's code: its output parser and its narrowing; no coverage (see coverage()).
import type { RunnerCode } from '../runner';
import { cargoParser } from './parser';
import { narrowCargo } from './narrow';

export const cargoCode: RunnerCode = {
  parsers: [cargoParser],
  narrow: (args, targets) => narrowCargo(args, targets),
  coverage: () => ({ why: 'cargo test has no coverage of its own (it needs an instrumented build, e.g. cargo-llvm-cov)' }),
};
