// cargo test narrowed to exact test names.
import { readArgs, titles, unique } from '../common/args';
import type { OptionTable, TargetTest } from '../common/args';
import type { RunnerNarrowing } from '../runner';

const CARGO: OptionTable = {
  valued: new Set(['-p', '--package', '--exclude', '-j', '--jobs', '--features', '-F', '--target', '--target-dir', '--manifest-path',
    '--profile', '--color', '--message-format', '--test', '--bench', '--bin', '--example', '-Z', '--config', '--lockfile-path']),
  dropped: new Set([]),
};
const CARGO_BINARY: OptionTable = {
  valued: new Set(['--test-threads', '--skip', '--format', '--color', '-Z', '--logfile', '--shuffle-seed', '--report-time']),
  dropped: new Set(['--exact']),
};

/**
 * cargo test takes one name before `--` and any number after it, for every test binary; --exact makes each name the
 * whole path of one test. Doc tests ("src/lib.rs - add (line 5)") have no name a filter selects.
 */
export function narrowCargo(args: readonly string[], targets: readonly TargetTest[]): RunnerNarrowing | { why: string } {
  const doc = targets.find((t) => / - .* \(line \d+\)$/.test(t.id));
  if (doc) return { why: `"${doc.id}" is a doc test, which cargo cannot select by name` };
  const read = readArgs(args, CARGO);
  const binary = readArgs(read.rest.slice(1), CARGO_BINARY);
  const names = unique(targets.map((t) => titles(t.id).join('::')));
  // The positional before `--` was the command's own name filter: the exact names replace it.
  return { args: [...read.options, '--', ...binary.options, '--exact', ...names], files: null, pattern: names.join(' ') };
}
