// node --test narrowed by file and by name.
import { anyOf, readArgs, targetFiles, titles } from '../common/args';
import type { OptionTable, TargetTest } from '../common/args';
import type { RunnerNarrowing } from '../runner';

const NODE: OptionTable = {
  valued: new Set(['--test-reporter', '--test-reporter-destination', '--import', '--require', '-r', '--loader', '--experimental-loader',
    '--test-concurrency', '--test-timeout', '--test-name-pattern', '--test-skip-pattern', '--env-file', '--conditions', '-C',
    '--test-shard', '--test-coverage-include', '--test-coverage-exclude', '--input-type', '--stack-size', '--max-old-space-size']),
  dropped: new Set(['--test-name-pattern']),
};

/**
 * node matches a pattern against each test's own name and, since 20.13, against its ancestors' names and its own
 * joined by spaces; a describe() always runs its children. Both forms are offered, and the whole ID for a top-level
 * test whose own name holds " > ".
 */
export function narrowNode(args: readonly string[], targets: readonly TargetTest[]): RunnerNarrowing {
  const read = readArgs(args, NODE);
  const names = targets.flatMap((t) => {
    const parts = titles(t.id);
    return [parts.join(' '), parts[parts.length - 1], t.id];
  });
  const pattern = anyOf(names);
  const files = targetFiles(targets);
  return { args: [...read.options, `--test-name-pattern=${pattern}`, ...(files ?? read.positionals), ...read.rest], files, pattern };
}
