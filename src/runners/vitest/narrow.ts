// vitest narrowed by file and by name.
import { anyOf, readArgs, targetFiles, titles } from '../common/args';
import type { OptionTable, TargetTest } from '../common/args';
import type { RunnerNarrowing } from '../runner';

const VITEST: OptionTable = {
  valued: new Set(['-c', '--config', '-t', '--testNamePattern', '-r', '--root', '--dir', '--reporter', '--outputFile', '--project', '--shard',
    '--pool', '--environment', '--testTimeout', '--hookTimeout', '--bail', '--retry', '--maxWorkers', '--minWorkers', '--exclude', '--mode',
    '--sequence.seed', '--coverage.provider', '--coverage.reporter', '--coverage.include', '--coverage.exclude']),
  dropped: new Set(['-t', '--testNamePattern', '--changed', '--related', '--reporter', '--outputFile']),
};

/**
 * vitest matches -t against the suite titles and the test's own joined by spaces; its positionals filter file paths.
 * Its default reporter names only failing tests; its JSON report (read by the same parser) names every one.
 */
export function narrowVitest(args: readonly string[], targets: readonly TargetTest[]): RunnerNarrowing {
  // `vitest run|related|watch|dev|bench`: the subcommand stays first.
  const sub = args[0] !== undefined && ['run', 'watch', 'dev'].includes(args[0]) ? [args[0]] : [];
  const read = readArgs(args.slice(sub.length), VITEST);
  const pattern = anyOf(targets.map((t) => titles(t.id).join(' ')));
  const files = targetFiles(targets);
  return { args: [...sub, ...read.options, '--reporter=json', '-t', pattern, ...(files ?? read.positionals), ...read.rest], files, pattern };
}
