// RSpec narrowed to some examples: their spec files, and `-e` with each example's own description (RSpec matches it
// within the full description, so an example of the same name in the same file may run too — never fewer). The run
// reports as `--format json`, which names every example that ran, so the caller sees that each target did; the
// project's other formatters and outputs are left out of it.
import { readArgs, titles, unique } from '../common/args';
import type { OptionTable, TargetTest } from '../common/args';
import type { RunnerNarrowing } from '../runner';

const RSPEC: OptionTable = {
  valued: new Set(['-e', '--example', '-E', '--example-matches', '-f', '--format', '-o', '--out', '-t', '--tag', '-I', '-r', '--require',
    '--seed', '--order', '-P', '--pattern', '--exclude-pattern', '--default-path', '-O', '--options', '--failure-exit-code', '-p', '--profile']),
  dropped: new Set(['-e', '--example', '-E', '--example-matches', '-f', '--format', '-o', '--out', '--only-failures', '--next-failure', '-n']),
};

export function narrowRspec(args: readonly string[], targets: readonly TargetTest[]): RunnerNarrowing | { why: string } {
  const missing = targets.find((t) => !t.file);
  if (missing) return { why: `RSpec named "${missing.id}" without its spec file` };
  const read = readArgs(args, RSPEC);
  const files = unique(targets.map((t) => t.file!)).sort();
  const leaves = unique(targets.map((t) => titles(t.id).pop() ?? t.id));
  return {
    args: [...read.options, '--format', 'json', ...leaves.flatMap((l) => ['-e', l]), ...files, ...read.rest],
    files,
    pattern: leaves.join(' | '),
  };
}
