// jest narrowed by file and by name.
import { anyOf, readArgs, targetFiles, titles } from '../common/args';
import type { OptionTable, TargetTest } from '../common/args';
import type { RunnerNarrowing } from '../runner';

const JEST: OptionTable = {
  valued: new Set(['-c', '--config', '-t', '--testNamePattern', '--test-name-pattern', '--reporters', '--testPathPattern', '--testPathPatterns',
    '--testPathIgnorePatterns', '-w', '--maxWorkers', '--testTimeout', '--coverageReporters', '--selectProjects', '--shard', '--outputFile',
    '--rootDir', '--roots', '--setupFiles', '--testEnvironment', '--testMatch', '--testRegex', '--seed', '--coverageDirectory',
    '--collectCoverageFrom', '--moduleNameMapper', '--changedSince', '--testRunner', '--testSequencer', '--maxConcurrency', '--filter', '--env']),
  dropped: new Set(['-t', '--testNamePattern', '--test-name-pattern', '--testPathPattern', '--testPathPatterns', '--onlyChanged', '-o',
    '--changedSince', '--lastCommit', '--findRelatedTests', '--runTestsByPath', '--onlyFailures', '-f', '--listTests']),
};

/**
 * jest matches -t against the describe() titles and the test's own joined by spaces. Files go by path, not as the
 * path patterns jest's positionals are; --verbose names every test even when several files run.
 */
export function narrowJest(args: readonly string[], targets: readonly TargetTest[]): RunnerNarrowing {
  const read = readArgs(args, JEST);
  const pattern = anyOf(targets.map((t) => titles(t.id).join(' ')));
  const files = targetFiles(targets);
  const selection = files ? ['--runTestsByPath', ...files] : read.positionals;
  const verbose = read.options.includes('--verbose') ? [] : ['--verbose'];
  return { args: [...read.options, ...verbose, '-t', pattern, ...selection, ...read.rest], files, pattern };
}
