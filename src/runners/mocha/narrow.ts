// mocha narrowed by file and by name, with its spec reporter: whether every targeted test ran must be read.
import { anyOf, readArgs, targetFiles, titles } from '../common/args';
import type { OptionTable, TargetTest } from '../common/args';
import type { RunnerNarrowing } from '../runner';

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

// mocha names no file, but its stack does: the test's own function runs as `Context.<anonymous>`.
const MOCHA_TEST_FRAME = /at (?:async )?Context\.<anonymous> \((?:file:\/\/)?(.+?):\d+:\d+\)/;

/**
 * The workspace file a mocha test's stack runs in, or undefined. Any path form (absolute, file://, relative) is
 * matched to a workspace file by its end.
 */
export function fileFromMochaStack(message: string | undefined, files: readonly string[] | undefined): string | undefined {
  const frame = message && files ? MOCHA_TEST_FRAME.exec(message) : null;
  if (!frame) return undefined;
  const framed = frame[1].replace(/\\/g, '/');
  const matches = files!.filter((f) => framed === f || framed.endsWith(`/${f}`));
  return matches.sort((a, b) => b.length - a.length)[0];
}
