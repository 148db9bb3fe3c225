// node --test, mocha, jest and vitest narrowed by file and by name, each with its own selection.
import { anyOf, readArgs, targetFiles, titles, unique } from './args';
import type { OptionTable, TargetTest } from './args';

export interface RunnerNarrowing {
  /** The runner's arguments, narrowed. */
  args: string[];
  /** The files (or packages) the run is limited to; null when it runs every file of the original command. */
  files: string[] | null;
  /** The name filter given to the runner. */
  pattern: string;
}

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

const MOCHA: OptionTable = {
  valued: new Set(['-r', '--require', '-R', '--reporter', '-O', '--reporter-option', '--reporter-options', '-u', '--ui', '-t', '--timeout',
    '--slow', '-s', '--config', '--package', '--extension', '--ignore', '--exclude', '--file', '--spec', '-g', '--grep', '-f', '--fgrep',
    '-j', '--jobs', '--retries', '-n', '--node-option', '--loader', '--global', '--globals', '--watch-files', '--watch-ignore']),
  dropped: new Set(['-g', '--grep', '-f', '--fgrep', '-i', '--invert', '-R', '--reporter', '-O', '--reporter-option', '--reporter-options']),
};
// Given the files, the files replace the spec the command named.
const MOCHA_BY_FILE: OptionTable = { valued: MOCHA.valued, dropped: new Set([...MOCHA.dropped, '--spec']) };

/**
 * mocha matches --grep against a test's full title: its suites' titles and its own joined by spaces. Its spec
 * reporter names every test it ran (dot, the default of many projects, names only failures), so the narrowed run
 * uses it: whether every targeted test ran must be read from the output.
 */
export function narrowMocha(args: readonly string[], targets: readonly TargetTest[]): RunnerNarrowing {
  const files = targetFiles(targets);
  const read = readArgs(args, files ? MOCHA_BY_FILE : MOCHA);
  const pattern = anyOf(targets.map((t) => titles(t.id).join(' ')));
  return { args: [...read.options, '--reporter', 'spec', '--grep', pattern, ...(files ?? read.positionals), ...read.rest], files, pattern };
}

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

export function namesOf(targets: readonly TargetTest[]): string[] {
  return unique(targets.map((t) => t.id));
}
